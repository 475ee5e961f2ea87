#!/usr/bin/env bash
# Copies what the GPU machine needs out of a built tree into one small folder (default out/gpu-bundle):
# the test binaries, tests/manifest.txt and the programs (bin/). Carry that folder (and .gl) to the GPU
# machine and run scripts/gpu-test.sh --build out/gpu-bundle there. See docs/DEVELOPING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
dest=${2:-out/gpu-bundle}
[ -f "$build/tests/manifest.txt" ] || { echo "gpu-bundle: $build is not a built tree (no tests/manifest.txt)" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/tests/bin" "$dest/bin"
cp "$build/tests/manifest.txt" "$dest/tests/"
cp "$build"/tests/bin/* "$dest/tests/bin/"
if [ -d "$build/bin" ]; then cp "$build"/bin/* "$dest/bin/"; fi
git rev-parse --short HEAD > "$dest/COMMIT" 2>/dev/null || echo unknown > "$dest/COMMIT"
du -sh "$dest"
