#!/usr/bin/env bash
# The slabcast program as a user meets it, headless on the CPU backend at a tiny size: the fallback
# messages (no GPU, no display; the viewer's options then unused), clean output (no uninitialised "pipelined" numbers, no source
# locations), exit codes and one-line messages for bad options, image formats by extension, JSON
# statistics for a hostile mesh name, framing of a mesh with a 3e38 vertex, and headless shadows
# (the default light, two --light lights, the shadow pass in the JSON), images to a device that fails
# every write.
# usage: run_cli_checks.sh SLABCAST_BINARY WORK_DIR
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
small=(--resolution 8 --size 32x24 --frames 2)
# No GPU (CUDA_VISIBLE_DEVICES hides every device) and no display, for every run below.
run() { env -u DISPLAY -u WAYLAND_DISPLAY CUDA_VISIBLE_DEVICES= "$bin" "$@" > "$work/out" 2> "$work/err"; }
lines() { grep -c '' "$1"; }
python=/usr/bin/python3; [ -x $python ] || python=

# Every stderr line is the program's ("slabcast: ..."), without source locations.
check_stderr_clean() {
  grep -v '^slabcast: ' "$work/err" | grep -q . && fail "$1: stderr has lines not from slabcast: $(cat "$work/err")"
  grep -Eq ' at [^ ]+\.(c|cu|h):[0-9]+' "$work/err" && fail "$1: stderr shows source locations: $(cat "$work/err")"
  return 0
}

# 1. No --backend, no --headless: falls back to cpu and headless, says so once each, with the reason
#    and the image path; no "pipelined" line (it is measured on cuda only) and null in the JSON.
if run "${small[@]}" --out "$work/fallback.png" --stats-json "$work/fallback.json"; then
  [ "$(grep -cE 'no cuda backend \(.*\): rendering on the cpu backend' "$work/err")" = 1 ] ||
    fail "no single GPU fallback message: $(cat "$work/err")"
  [ "$(grep -c 'no window (no display: .*DISPLAY.*): rendering headless; the last frame goes to .*fallback.png' "$work/err")" = 1 ] ||
    fail "no single display fallback message: $(cat "$work/err")"
  [ "$(lines "$work/err")" = 2 ] || fail "fallback run: expected 2 stderr lines: $(cat "$work/err")"
  check_stderr_clean "fallback run"
  grep -q pipelined "$work/out" && fail "cpu run prints a pipelined line: $(grep pipelined "$work/out")"
  [ "$(head -c 4 "$work/fallback.png" | od -An -tx1 | tr -d ' \n')" = 89504e47 ] || fail "fallback.png is not a PNG"
  if [ -n "$python" ]; then
    $python -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["pipelined"] is None, j["pipelined"]; assert j["frames"] == 2' \
      "$work/fallback.json" || fail "fallback.json: invalid, or pipelined is not null"
  fi
else
  fail "fallback run exited $?: $(cat "$work/err")"
fi

# 1b. The viewer's own options on a run that falls back to headless: the fallback line names them.
if run "${small[@]}" --backend cpu --no-hud --deform-speed 2 --out "$work/fallback_viewer.png"; then
  [ "$(grep -c 'rendering headless; the last frame goes to .*fallback_viewer.png (viewer options such as --no-hud have no effect)' "$work/err")" = 1 ] ||
    fail "fallback with viewer options: $(cat "$work/err")"
  [ "$(lines "$work/err")" = 1 ] || fail "fallback with viewer options: expected 1 stderr line: $(cat "$work/err")"
else
  fail "fallback run with viewer options exited $?: $(cat "$work/err")"
fi

# 2. Explicit --backend cpu --headless: nothing to say on stderr.
run "${small[@]}" --backend cpu --headless --out "$work/plain.png" || fail "plain run failed: $(cat "$work/err")"
[ -s "$work/err" ] && fail "plain run wrote to stderr: $(cat "$work/err")"

# 3. Bad options: exit 2 before any work, one line naming the option.
bad_options=("--size 4294967297x1" "--size 0x5" "--dt 0" "--dt 1e38" "--dt nan" "--time inf" "--frames 99999999999"
             "--frames 12abc" "--tile 33" "--slabs 0" "--threads -1" "--max-mesh-bytes 0" "--max-vertices 1e3"
             "--out x.gif" "--out noextension" "--mode fancy" "--camera 1,2,3" "--camera 0,0,5,0,0,0,200"
             "--camera 1,1,1,1,1,1,45" "--light 1,2" "--light dir:0,0,0" "--light 1e19,0,0" "--mode shadowz"
             "--light 1,0,0 --light 2,0,0 --light 3,0,0 --light 4,0,0 --light 5,0,0"
             "--no-hud" "--state-log s.jsonl" "--interop off" "--deform-speed 2")
for args in "${bad_options[@]}"; do
  read -ra a <<< "$args"
  run "${a[@]}" --headless --backend cpu --out "$work/bad.png"
  rc=$?
  [ $rc = 2 ] || fail "'$args' exited $rc, not 2"
  [ "$(lines "$work/err")" = 1 ] && grep -q "^slabcast: .*${a[0]}" "$work/err" ||
    fail "'$args': not one line naming ${a[0]}: $(cat "$work/err")"
  [ -s "$work/out" ] && fail "'$args' wrote to stdout: $(cat "$work/out")"
done
run --bogus
[ $? = 2 ] && grep -q "unknown option '--bogus'" "$work/err" && ! grep -q "needs a value" "$work/err" ||
  fail "--bogus: $(cat "$work/err")"
run --headless --mesh
[ $? = 2 ] && grep -q "option --mesh needs a value" "$work/err" && ! grep -q unknown "$work/err" ||
  fail "--mesh without a value: $(cat "$work/err")"

# 4. Runtime failures: exit 1, one clean line naming the file.
run "${small[@]}" --backend cpu --headless --mesh "$work/missing.obj"
[ $? = 1 ] && [ "$(lines "$work/err")" = 1 ] && grep -q "missing.obj" "$work/err" ||
  fail "missing mesh: $(cat "$work/err")"
check_stderr_clean "missing mesh"
run "${small[@]}" --backend cpu --headless --out "$work/no/such/dir/x.png"
[ $? = 1 ] && [ "$(lines "$work/err")" = 1 ] && grep -q "no/such/dir" "$work/err" ||
  fail "unwritable --out: $(cat "$work/err")"

# 4b. A device that fails every write (/dev/full, through a link with an image's name): the image and
#     each --record frame fail in one line naming the file and the reason, exit 1, never a success.
if [ -c /dev/full ]; then
  for ext in png jpg bmp tga; do
    ln -sf /dev/full "$work/full.$ext"
    run "${small[@]}" --backend cpu --headless --out "$work/full.$ext"
    rc=$?
    [ $rc = 1 ] && [ "$(lines "$work/err")" = 1 ] && grep -q "full.$ext: .*No space left on device" "$work/err" ||
      fail "--out to /dev/full as .$ext: exit $rc: $(cat "$work/err")"
  done
  mkdir -p "$work/recfull" && ln -sf /dev/full "$work/recfull/frame-000001.png"
  run "${small[@]}" --backend cpu --headless --record "$work/recfull" --out "$work/recfull.png"
  rc=$?
  [ $rc = 1 ] && grep -q "frame-000001.png: .*No space left on device" "$work/err" ||
    fail "--record into /dev/full: exit $rc: $(cat "$work/err")"
  check_stderr_clean "--record into /dev/full"
fi

# 5. The image format follows the extension.
for ext in jpg JPEG bmp tga png; do
  run "${small[@]}" --backend cpu --headless --out "$work/shot.$ext" || { fail "--out shot.$ext failed: $(cat "$work/err")"; continue; }
  magic=$(head -c 3 "$work/shot.$ext" | od -An -tx1 | tr -d ' \n')
  case $ext in
    jpg|JPEG) ok=$([ "$magic" = ffd8ff ] && echo 1) ;;          # JPEG SOI marker
    bmp) ok=$([ "${magic:0:4}" = 424d ] && echo 1) ;;             # "BM"
    tga) ok=$(case ${magic:4:2} in 02|0a) echo 1 ;; esac) ;;      # true-colour, raw or RLE
    png) ok=$([ "$magic" = 89504e ] && echo 1) ;;                 # "\x89PN"
  esac
  [ "$ok" = 1 ] || fail "shot.$ext starts with $magic"
done

# 6. A mesh name with a quote, a backslash and a non-UTF-8 byte gives valid JSON naming it.
tetra='v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n'
name=$'q"uo\\te\xff.obj'
printf "$tetra" > "$work/$name"
if run "${small[@]}" --backend cpu --headless --mesh "$work/$name" --out "$work/q.png" --stats-json "$work/q.json"; then
  if [ -n "$python" ]; then
    $python -c 'import json,sys; j=json.load(open(sys.argv[1], encoding="utf-8")); assert j["mesh"] == "q\"uo\\te\ufffd.obj", j["mesh"]' \
      "$work/q.json" || fail "q.json: invalid JSON or wrong mesh name: $(cat "$work/q.json")"
  fi
else
  fail "mesh with a quote in its name: $(cat "$work/err")"
fi

# 7. Framing: a 3e38 vertex, and an unused far vertex, never break the camera.
printf 'v -3e38 -3e38 -3e38\nv 3e38 -3e38 -3e38\nv 0 3e38 -3e38\nv 0 0 3e38\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n' > "$work/huge.obj"
run "${small[@]}" --backend cpu --headless --mesh "$work/huge.obj" --out "$work/huge.png"
rc=$?
[ $rc = 0 ] && [ -s "$work/huge.png" ] || fail "huge.obj exited $rc: $(cat "$work/err")"
grep -q "hit pixels" "$work/out" && ! grep -q " 0 hit pixels" "$work/out" || fail "huge.obj renders nothing: $(cat "$work/out")"
printf "${tetra}v 1e38 1e38 1e38\n" > "$work/far.obj"
run "${small[@]}" --backend cpu --headless --mesh "$work/far.obj" --out "$work/far.png"
rc=$?
[ $rc = 0 ] || fail "far.obj exited $rc: $(cat "$work/err")"
grep -q " 0 hit pixels" "$work/out" && fail "far.obj renders nothing (framed on the unused vertex)"

# 8. --record DIR: every measured frame as DIR/frame-NNNNNN.png (headless); a missing folder is refused
#    before any work, in one line naming it.
mkdir -p "$work/rec"
run "${small[@]}" --backend cpu --headless --frames 3 --record "$work/rec" --out "$work/rec-last.png"
rc=$?
n=$(ls "$work/rec" | grep -c '^frame-00000[123]\.png$')
[ $rc = 0 ] && [ "$n" = 3 ] && cmp -s "$work/rec/frame-000003.png" "$work/rec-last.png" ||
  fail "--record: exit $rc, $n of 3 frames, last frame equal to --out: $(cat "$work/err")"
run "${small[@]}" --backend cpu --headless --record "$work/no-such-folder"
rc=$?
[ $rc = 1 ] && [ "$(lines "$work/err")" = 1 ] && grep -q "no-such-folder.*create the folder" "$work/err" ||
  fail "--record to a missing folder: exit $rc: $(cat "$work/err")"

# 9. Shadows headless: the default light said on stdout, the shadow pass in the JSON (its stages and
#    counters); two --light lights with --shadows cast two lights' shadows.
if run "${small[@]}" --backend cpu --headless --shadows --mode shadow --out "$work/shadow.png" \
       --stats-json "$work/shadow.json"; then
  grep -q '^slabcast: shadows on, 1 light: point (.*) (default)$' "$work/out" ||
    fail "--shadows: no default light line: $(cat "$work/out")"
  [ -s "$work/err" ] && fail "--shadows wrote to stderr: $(cat "$work/err")"
  if [ -n "$python" ]; then
    $python -c 'import json,sys; j=json.load(open(sys.argv[1])); l=j["last_frame"]
assert all(s in j["stages"] for s in ("shadow-recv", "shadow-emit", "shadow-split", "shadow-cast")), j["stages"]
assert l["shadow_lights"] == 1 and l["shadow_receivers"] == l["hit_pixels"] > 0, l' "$work/shadow.json" ||
      fail "shadow.json: no shadow pass: $(cat "$work/shadow.json")"
  fi
else
  fail "--shadows exited $?: $(cat "$work/err")"
fi
if run "${small[@]}" --backend cpu --headless --shadows --light 0,5,0 --light dir:-1,-1,0 --out "$work/two.png" \
       --stats-json "$work/two.json"; then
  grep -q '^slabcast: shadows on, 2 lights: point (0, 5, 0), directional (-1, -1, 0)$' "$work/out" ||
    fail "two --light: $(cat "$work/out")"
  if [ -n "$python" ]; then
    $python -c 'import json,sys; l=json.load(open(sys.argv[1]))["last_frame"]
assert l["shadow_lights"] == 2 and l["shadow_receivers"] == 2 * l["hit_pixels"], l' "$work/two.json" ||
      fail "two.json: not two lights' shadows: $(cat "$work/two.json")"
  fi
else
  fail "two --light exited $?: $(cat "$work/err")"
fi

[ $fails = 0 ] && echo "PASS: slabcast command line checks" || echo "$fails check(s) failed"
[ $fails = 0 ]
