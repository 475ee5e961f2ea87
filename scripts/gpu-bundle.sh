#!/usr/bin/env bash
# Copies what the GPU machine needs out of a built tree into one small folder (default out/gpu-bundle):
# the gpu/gl test binaries, their tests/manifest.txt and the programs (bin/). Copy that folder (and .gl) to the GPU
# machine and run scripts/gpu-test.sh --build out/gpu-bundle there. See docs/DEVELOPING.md.
#   scripts/gpu-bundle.sh [BUILD [DEST]] [--xz]
# --xz also packs DEST into DEST.tar.xz (about 13x smaller: copy that instead, and unpack it on the
# GPU machine first with `tar xJf DEST.tar.xz`).
set -euo pipefail
cd "$(dirname "$0")/.."
xz=0 args=()
for a in "$@"; do [ "$a" = --xz ] && xz=1 || args+=("$a"); done
build=${args[0]:-build/release}
dest=${args[1]:-out/gpu-bundle}
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
if [ $xz -eq 1 ]; then
  # One stream with a dictionary larger than the folder: every binary links the same libraries,
  # so each copy after the first packs to almost nothing (142 MB -> 11 MB; xz -6 in blocks: 62 MB).
  tar cf - "$dest" | xz -T1 --lzma2=preset=6,dict=192MiB > "$dest.tar.xz"
  du -sh "$dest.tar.xz"
fi
