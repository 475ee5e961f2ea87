#!/usr/bin/env python3
"""Prints slabcast-bench JSON files (docs/BENCH.md, schema 1) as the markdown table of docs/PERFORMANCE.md §2:
one row per configuration, median / p95 ms per stage and per frame, the grid build (project through slab
split, medians added), frames per second back to back, and the counters of the last frame.
usage: bench-table.py RESULT.json...   (python3, standard library only)"""
import json
import sys

STAGES = ["deform", "normals", "project", "reduce", "scan", "emit", "tile_split", "slab_split", "raycast",
          "shadow-recv", "shadow-emit", "shadow-split", "shadow-cast", "shade", "frame"]
GRID = ["project", "reduce", "scan", "emit", "tile_split", "slab_split"]


def name(row):
    parts = [row["model_name"] if row["model_name"] != "builtin" else "knot"]
    if row["subdivide"]:
        parts.append(f"sub{row['subdivide']}")
    parts.append(f"{row['width']}x{row['height']}")
    parts.append(f"tile{row['tile_size']}")
    parts.append(f"slabs{row['num_slabs']}")
    if row.get("views", 1) > 1:
        parts.append(f"view{row['view']}of{row['views']}")
    return "-".join(parts)


def cell(q):
    return f"{q['median']:.3f} / {q['p95']:.3f}" if q and q.get("median") is not None else "-"


def main(paths):
    if not paths:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    print("| config | frames | " + " | ".join(STAGES) + " | grid build | frames/s back to back | visible tris | refs "
          "| ray-tri tests | early-exit tiles |")
    print("|---|" + "---:|" * (len(STAGES) + 7))
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        if doc.get("schema") != 1:
            print(f"bench-table: {path}: schema {doc.get('schema')!r}, expected 1", file=sys.stderr)
            return 1
        for row in doc["rows"]:
            if row["status"] != "ok":
                print(f"| {name(row)} | failed: {row.get('error')} |")
                continue
            st = row["stages_ms"]
            grid = sum(st[s]["median"] for s in GRID)
            b2b = row["back_to_back"]["fps"] if row.get("back_to_back") else None
            print(f"| {name(row)} | {row['frames']} | " + " | ".join(cell(st.get(s) or st.get(s.replace('-', '_'))) for s in STAGES) +
                  f" | {grid:.3f} | {b2b:.0f} | {row['visible_triangles']} | {row['references']} | "
                  f"{row['ray_triangle_tests']} | {row['tiles_exited_early']} / {row['tiles']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
