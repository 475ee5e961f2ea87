#!/usr/bin/env bash
# Runs the gpu and gl test suites from an already built tree, with no cmake configure (the GPU machine
# has no GLFW, cglm or glad generator). Sets up headless EGL: unpacks the libglvnd packages from .gl/
# when libEGL.so.1 is missing, points libglvnd at NVIDIA's EGL vendor file.
#   scripts/gpu-test.sh [--build DIR] [--labels gpu,gl] [--only GLOBS] [--large] [--sanitize] [--require]
#                       [-- arguments]
#     --build DIR   built tree or bundle holding tests/manifest.txt and tests/bin/ (default build/release)
#     --only GLOBS  run only the tests whose names match one of these comma-separated shell globs
#                   (e.g. 'test_split_demo_*,test_render_*'): to rerun part of a suite
#     --large       also run tests labelled large
#     --sanitize    also run each gpu test program's "sanitize_mid" case under compute-sanitizer memcheck
#                   and racecheck, once per program (several manifest entries may run one program)
#     -- arguments  passed to every test program after its manifest arguments
#     --require     a missing GPU or GL context fails instead of skipping (SLABCAST_REQUIRE_GPU=1)
# Prints one line per test and "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
build=build/release labels=gpu,gl only='' large=0 sanitize=0 filters=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --labels) labels=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --large) large=1; shift ;;
    --sanitize) sanitize=1; shift ;;
    --require) export SLABCAST_REQUIRE_GPU=1; shift ;;
    --) shift; filters=("$@"); break ;;
    *) echo "gpu-test: unknown argument $1" >&2; exit 2 ;;
  esac
done
manifest=$build/tests/manifest.txt
[ -f "$manifest" ] || { echo "gpu-test: no $manifest (build first, or pass --build)" >&2; exit 2; }

# Headless EGL on the NVIDIA driver through libglvnd.
if ! ldconfig -p | grep -q 'libEGL.so.1 '; then
  if ls .gl/*.deb >/dev/null 2>&1; then
    for f in .gl/*.deb; do dpkg -x "$f" /; done
    ldconfig
  else
    echo "gpu-test: warning: libEGL.so.1 missing and no .gl/*.deb to unpack (scripts/fetch-gl-debs.sh)" >&2
  fi
fi
vendor=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] || vendor=/usr/share/glvnd/egl_vendor.d/10_nvidia.json
[ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu-test: device: /'
passed=0 failed=0 skipped=0 failed_names=() sanitized=' '
want_label() {
  local have=",$1,"
  [[ $large -eq 0 && $have == *,large,* ]] && return 1
  # Window tests need an X display (scripts/gpu-window-test.sh starts Xvfb with NVIDIA's GLX for them).
  [[ -z ${DISPLAY:-} && $have == *,window,* ]] && return 1
  local l
  for l in ${labels//,/ }; do [[ $have == *,$l,* ]] && return 0; done
  return 1
}
want_name() {
  [ -z "$only" ] && return 0
  local g
  local IFS=,
  for g in $only; do
    # shellcheck disable=SC2053
    [[ $1 == $g ]] && return 0
  done
  return 1
}
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
record() { # name rc seconds
  case $2 in
    0) passed=$((passed+1)); echo "PASS  $1 ($3 s)" ;;
    77) skipped=$((skipped+1)); echo "SKIP  $1" ;;
    *) failed=$((failed+1)); failed_names+=("$1"); echo "FAIL  $1 (exit $2, $3 s)" ;;
  esac
}
logdir=${OUT:-/tmp}/gpu-test-logs
mkdir -p "$logdir"
while IFS='|' read -r name tlabels bin args; do
  [ -n "$name" ] || continue
  want_label "$tlabels" || continue
  want_name "$name" || continue
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086
  "$build/tests/bin/$bin" $args "${filters[@]}" > "$logdir/$name.log" 2>&1
  rc=$?
  dt=$(elapsed "$t0")
  record "$name" $rc "$dt"
  if [ $rc -ne 0 ] && [ $rc -ne 77 ]; then sed 's/^/      /' "$logdir/$name.log" | tail -40; fi
  grep -E '^(      device|      context)' "$logdir/$name.log" | head -2
  if [ $sanitize -eq 1 ] && [[ ",$tlabels," == *,gpu,* ]] && [ $rc -eq 0 ] && [[ $sanitized != *" $bin "* ]]; then
    sanitized+="$bin "
    for tool in memcheck racecheck; do
      "$build/tests/bin/$bin" sanitize_mid > "$logdir/$name.$tool.probe" 2>&1
      grep -q '^ok    .*sanitize_mid' "$logdir/$name.$tool.probe" || continue
      t0=$(date +%s.%N)
      compute-sanitizer --tool $tool --error-exitcode 1 "$build/tests/bin/$bin" sanitize_mid > "$logdir/$name.$tool.log" 2>&1
      rc=$?
      dt=$(elapsed "$t0")
      record "${name}[$tool]" $rc "$dt"
      [ $rc -ne 0 ] && tail -30 "$logdir/$name.$tool.log" | sed 's/^/      /'
      grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logdir/$name.$tool.log" | sed 's/^/      /'
    done
  fi
done < "$manifest"
echo "gpu-test: logs in $logdir"
[ ${#failed_names[@]} -eq 0 ] || echo "gpu-test: failed: ${failed_names[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
