#!/usr/bin/env bash
# The main job: installs what the build needs, builds slabcast and runs it on the built-in default
# mesh. Arguments go to the slabcast program (see `slabcast --help`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
exec build/release/bin/slabcast "$@"
