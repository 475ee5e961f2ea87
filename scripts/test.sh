#!/usr/bin/env bash
# The test command: installs what the build needs, builds everything (CUDA included) and runs the
# test suite. GPU tests report "skipped" on machines without an NVIDIA GPU; GL tests use a headless
# EGL context (Mesa's software device here, the NVIDIA device on a GPU machine). Then the fuzz
# build (preset "fuzz": clang, libFuzzer, ASan + UBSan, C only) replays every fuzz target's seed
# corpus and regression cases (ctest label "fuzz").
#   bash scripts/test.sh              # all but the 'large' label, then the fuzz replay (what CI runs)
#   bash scripts/test.sh -L cpu       # extra arguments go to the release ctest; no fuzz replay
#   SLABCAST_FUZZ_TESTS=1 bash scripts/test.sh -L cpu    # ... and the fuzz replay too
#   SLABCAST_FUZZ_TESTS=0 bash scripts/test.sh           # never the fuzz replay
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
preset=${SLABCAST_PRESET:-release}
fuzz=${SLABCAST_FUZZ_TESTS:-}
if [ -z "$fuzz" ]; then
  if [ "$#" -eq 0 ]; then fuzz=1; else fuzz=0; fi
fi
cmake --preset "$preset"
cmake --build --preset "$preset"
if [ "$#" -eq 0 ]; then set -- -LE large; fi
ctest --preset "$preset" "$@"
if [ "$fuzz" = 1 ]; then
  cmake --preset fuzz
  cmake --build --preset fuzz
  ctest --preset fuzz
fi
