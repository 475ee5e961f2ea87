#!/usr/bin/env bash
# On the GPU machine: real windows through Xvfb, rendered on the GPU by NVIDIA's GLX client
# (__GLX_VENDOR_LIBRARY_NAME=nvidia; Xvfb's GLX extension itself is served by Mesa's software driver).
# Needs .gl/ (scripts/fetch-gl-debs.sh) and .x/ (scripts/fetch-x-debs.sh) copied with the tree.
#   scripts/gpu-window-test.sh [--prepare] [--build DIR] [--fps MODEL [SUBDIVIDE]]...
#     --prepare     only unpack .x (once per machine: later runs need only the bundle)
#     --build DIR   a bundle (scripts/gpu-bundle.sh) or built tree (default out/gpu-bundle)
#     --fps MODEL N the viewer's frame rate, vsync off, at 1024x1024, 1920x1080 and 3840x2160 for MODEL
#                   subdivided N times (repeatable; "builtin" is the built-in mesh)
# Runs: 1. the window tests (label window: CUDA frames shown through interop and through the copy path
# equal the renderer's image byte for byte, with resizes); 2. the slabcast viewer with --interop auto and
# off, without and with --shadows: its screenshot of frame N equals the headless image of frame N, byte
# for byte; 3. the --fps runs.
set -uo pipefail
cd "$(dirname "$0")/.."
build=out/gpu-bundle fps=() prepare=0
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --fps) fps+=("$2:$3"); shift 3 ;;
    --prepare) prepare=1; shift ;;
    *) echo "gpu-window-test: unknown argument $1" >&2; exit 2 ;;
  esac
done
if ! ldconfig -p | grep -q 'libGLX.so.0 '; then
  for f in .gl/*.deb; do dpkg -x "$f" /; done
  ldconfig
fi
# Unpacked once per machine (into /tmp/slabcast-x): .x need not be copied with every bundle.
x=/tmp/slabcast-x
if [ ! -x "$x/usr/bin/Xvfb" ]; then
  for a in .x/x11.tar.xz .x/mesa.tar.xz; do
    [ -f "$a" ] || { echo "gpu-window-test: $a missing (scripts/fetch-x-debs.sh, then copy .x to this machine)" >&2; exit 2; }
  done
  rm -rf "$x" && mkdir -p "$x"
  tar xJf .x/x11.tar.xz -C "$x" && tar xJf .x/mesa.tar.xz -C "$x" || exit 2
fi
[ $prepare -eq 1 ] && { echo "gpu-window-test: X unpacked in $x"; exit 0; }
lib=$x/usr/lib/x86_64-linux-gnu
# Xvfb runs xkbcomp and loads swrast_dri.so from the paths it was built with.
[ -x /usr/bin/xkbcomp ] || cp "$x/usr/bin/xkbcomp" /usr/bin/xkbcomp
mkdir -p /usr/lib/x86_64-linux-gnu/dri
[ -e /usr/lib/x86_64-linux-gnu/dri/swrast_dri.so ] || cp "$lib/dri/swrast_dri.so" /usr/lib/x86_64-linux-gnu/dri/
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
out=${OUT:-/tmp}/window-test
mkdir -p "$out"
"$x/usr/bin/Xvfb" :97 -screen 0 3840x2160x24 -nolisten tcp -xkbdir "$x/usr/share/X11/xkb" > "$out/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null' EXIT
for _ in $(seq 50); do [ -S /tmp/.X11-unix/X97 ] && break; sleep 0.1; done
[ -S /tmp/.X11-unix/X97 ] || { echo "gpu-window-test: Xvfb did not start:"; cat "$out/xvfb.log"; exit 1; }
export DISPLAY=:97 __GLX_VENDOR_LIBRARY_NAME=nvidia
status=0

echo "== window tests"
bash scripts/gpu-test.sh --build "$build" --labels window --require || status=1

echo "== the viewer's frames against the headless renderer's (without and with shadows)"
bin=$build/bin/slabcast
for extra in "" "--shadows"; do
  tag=${extra:+-shadows}
  common=(--frames 12 --size 800x600 --time 0.5 --backend cuda $extra)
  "$bin" --headless "${common[@]}" --out "$out/headless$tag.png" > "$out/headless$tag.log" 2>&1 ||
    { cat "$out/headless$tag.log"; status=1; }
  for mode in auto off; do
    "$bin" --window --no-hud --interop $mode "${common[@]}" --out "$out/window-$mode$tag.png" > "$out/window-$mode$tag.log" 2>&1
    rc=$?
    grep -E "window|frames reach|fps" "$out/window-$mode$tag.log"
    if [ $rc -eq 0 ] && cmp -s "$out/headless$tag.png" "$out/window-$mode$tag.png"; then
      echo "PASS  viewer --interop $mode $extra: frame 12 shown equals the headless frame 12"
    else
      echo "FAIL  viewer --interop $mode $extra (exit $rc)"; tail -5 "$out/window-$mode$tag.log"; status=1
    fi
  done
done

for spec in "${fps[@]}"; do
  model=${spec%%:*} sub=${spec##*:}
  args=(--subdivide "$sub")
  [ "$model" = builtin ] || args+=(--mesh "$model")
  for size in 1024x1024 1920x1080 3840x2160; do
    echo "== viewer fps: $model /$sub at $size, vsync off"
    "$bin" --window --backend cuda "${args[@]}" --size "$size" --frames 600 2>&1 | grep -E "frames in|error|slabcast: [^w]" | head -5
  done
done
echo "gpu-window-test: $([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
