#!/usr/bin/env bash
# Renderer benchmark: runs the slabcast program headless on the GPU for the configurations of
# docs/PERFORMANCE.md and prints one markdown table (median / p95 ms per stage and per frame, counters).
#   scripts/bench-render.sh [--bin PATH] [--dragon PATH.obj(.xz)] [--frames N] [--out DIR] [--quick]
# The dragon is looked for in $SLABCAST_MODELS (default ../shared/models), then out/models/; those needing it are
# skipped when it is absent. JSON per configuration goes to DIR (default $OUT or /tmp/bench-render).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/release/bin/slabcast frames=500 quick=0
dragon=""
for d in "${SLABCAST_MODELS:-../shared/models}/stanford-dragon.obj.xz" out/models/stanford-dragon.obj.xz; do
  [ -f "$d" ] && { dragon=$d; break; }
done
outdir=${OUT:-/tmp}/bench-render
while [ $# -gt 0 ]; do
  case "$1" in
    --bin) bin=$2; shift 2 ;;
    --dragon) dragon=$2; shift 2 ;;
    --frames) frames=$2; shift 2 ;;
    --out) outdir=$2; shift 2 ;;
    --quick) quick=1; frames=100; shift ;;
    *) echo "bench-render: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$outdir"
[ -x "$bin" ] || { echo "bench-render: no $bin (build first or pass --bin)" >&2; exit 2; }

rows=()
run() { # name, then slabcast arguments
  local name=$1; shift
  local json="$outdir/$name.json"
  echo "bench-render: $name: $*" >&2
  "$bin" --headless --backend cuda --frames "$frames" --deform twist,wave --out "$outdir/$name.png" \
         --stats-json "$json" "$@" > "$outdir/$name.log" 2>&1 || { cat "$outdir/$name.log" >&2; return 1; }
  rows+=("$name|$json")
}

run knot-1M-1024 --size 1024x1024
if [ -n "$dragon" ]; then
  run dragon-1024 --mesh "$dragon" --size 1024x1024
  if [ $quick -eq 0 ]; then
    for s in 1 4 8 32; do run "dragon-1024-slabs$s" --mesh "$dragon" --size 1024x1024 --slabs $s; done
    run dragon-1024-tile16 --mesh "$dragon" --size 1024x1024 --tile 16
    run knot-1M-1024-tile16 --size 1024x1024 --tile 16
    run dragon14M-1920x1080 --mesh "$dragon" --subdivide 2 --size 1920x1080 --frames $((frames / 5 > 20 ? frames / 5 : 20))
  fi
else
  echo "bench-render: no dragon model found: dragon configurations skipped" >&2
fi

printf '%s\n' "${rows[@]}" | python3 -c '
import json, sys
stages = ["deform","normals","project","reduce","scan","emit","tile_split","slab_split","raycast","shade","frame"]
print("| config | frames | " + " | ".join(stages) + " | grid build | visible tris | refs | ray-tri tests | early-exit tiles |")
print("|---|---:|" + "---:|" * (len(stages) + 5))
for line in sys.stdin:
    name, path = line.strip().split("|")
    j = json.load(open(path)); st = j["stages"]; lf = j.get("last_frame", {})
    grid = sum(st[s]["median_ms"] for s in ["project","reduce","scan","emit","tile_split","slab_split"])
    cells = ["%.3f / %.3f" % (st[s]["median_ms"], st[s]["p95_ms"]) for s in stages]
    print("| %s | %d | %s | %.3f | %s | %s | %s | %s / %s |" % (name, j["frames"], " | ".join(cells), grid,
          lf.get("visible_triangles"), lf.get("references"), lf.get("ray_triangle_tests"),
          lf.get("tiles_exited_early"), lf.get("tiles")))
'
