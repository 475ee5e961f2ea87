#!/usr/bin/env bash
# The test command: installs what the build needs, builds everything (CUDA included) and runs the
# test suite. GPU tests report "skipped" on machines without an NVIDIA GPU; GL tests use a headless
# EGL context (Mesa's software device here, the NVIDIA device on a GPU machine).
#   bash scripts/test.sh              # all but the 'large' label
#   bash scripts/test.sh -L cpu       # extra arguments go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
preset=${SLABCAST_PRESET:-release}
cmake --preset "$preset"
cmake --build --preset "$preset"
if [ "$#" -eq 0 ]; then set -- -LE large; fi
ctest --preset "$preset" "$@"
