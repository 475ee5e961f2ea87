#!/usr/bin/env bash
# Copies what the GPU machine needs out of a built tree into one small folder (default out/gpu-bundle):
# the gpu/gl test binaries, their tests/manifest.txt and the programs (bin/). Carry that folder (and .gl) to the GPU
# machine and run scripts/gpu-test.sh --build out/gpu-bundle there. See docs/DEVELOPING.md.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
dest=${2:-out/gpu-bundle}
[ -f "$build/tests/manifest.txt" ] || { echo "gpu-bundle: $build is not a built tree (no tests/manifest.txt)" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest/tests/bin" "$dest/bin"
# Only what runs on the GPU machine: tests labelled gpu or gl (the manifest keeps just those lines).
while IFS='|' read -r name labels bin args; do
  case ",$labels," in
    *,gpu,*|*,gl,*) cp "$build/tests/bin/$bin" "$dest/tests/bin/"; echo "$name|$labels|$bin|$args" >> "$dest/tests/manifest.txt" ;;
  esac
done < "$build/tests/manifest.txt"
if [ -d "$build/bin" ]; then cp "$build"/bin/* "$dest/bin/"; fi
git rev-parse --short HEAD > "$dest/COMMIT" 2>/dev/null || echo unknown > "$dest/COMMIT"
du -sh "$dest"
