#!/usr/bin/env bash
# The main job: installs what the build needs, builds slabcast and runs it on the built-in default
# mesh (or --mesh FILE). Arguments go to the slabcast program (see `slabcast --help`). The build runs
# in the repository; the program runs in the directory this script was started from, so relative
# paths (--mesh, --out, --stats-json) mean what they say there.
set -euo pipefail
caller_dir=$PWD
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
cd "$caller_dir"
exec "$repo/build/release/bin/slabcast" "$@"
