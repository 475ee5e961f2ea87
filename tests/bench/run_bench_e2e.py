#!/usr/bin/env python3
"""run_bench_e2e.py - slabcast-bench end to end on the CPU backend, as CI runs it.

    run_bench_e2e.py SLABCAST_BENCH WORK_DIR

A small built-in mesh at two sizes and two slab counts with --json, --csv, --plot and the cpu peer:
exit status 0, every row of the JSON and the CSV filled (every stage's median / p95 / max, the frame
rate, the counters; device memory null on the CPU backend), the counters consistent with the
configuration (triangles of the mesh, tiles of the grid), the device's limits measured once and every
row's floor (per stage and the frame: bytes, time, x floor; the casts' tests) in the JSON, the CSV and
the table, the peer's agreement 1, the SVG well formed
with its three panels and a point per configuration on each log-log panel, and the table on stdout;
a one-configuration run with --plot F.PNG (and --no-limits: no floor, said so) writes a 1000x900 RGBA PNG; --shadows off,on with --images
(and --vertex-order as-loaded) fills the shadow fields of each row (zero with shadows off, the default
light and counters with them on), the shadow stages' times and our picture; options.vertex_order says
the renderer's vertex order (first-use by default). Then the failures: bad usage (--plot with another extension, a
bad --shadows value, --images without shadows) exits 2 naming the option; a model that cannot be read
exits 1 naming the configuration, its row marked failed in the JSON. Exit 0 on success, 1 on a failure.
"""
import csv
import json
import math
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

RESOLUTION = 12          # the built-in knot: 4 * 12^2 = 576 triangles
SIZES = [(64, 48), (96, 64)]
SLABS = [4, 16]
TILE = 8
# The eye pass's stages, then the shadow pass's four (named by the program), then shade.
EYE_STAGES = ["deform", "normals", "project", "reduce", "scan", "emit", "tile_split", "slab_split", "raycast"]
SHADOW_STAGE_COUNT = 4
SHADOW_FIELDS = ["shadow_lights", "light_views", "shadow_receivers", "shadow_references", "shadow_ray_tests",
                 "shadow_rays_blocked", "shadow_rays_early", "shadow_overflow_passes"]
STAGES = []  # as the JSON lists them (check_json checks the list, then every row uses it)

failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL: " + msg)


def check(cond, msg):
    if not cond:
        fail(msg)
    return cond


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def run(binary, args):
    env = dict(os.environ)
    env["CUDA_VISIBLE_DEVICES"] = ""  # never a GPU, even on a machine that has one
    return subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=300)


def check_row_json(row):
    name = "row %s" % row.get("index")
    check(row["status"] == "ok" and row["error"] is None, name + ": not ok: %s" % row.get("error"))
    for stage in STAGES + ["frame"]:
        q = row["stages_ms"].get(stage)
        if not check(q is not None, "%s: no stage %s" % (name, stage)):
            continue
        check(all(number(q[k]) and q[k] >= 0 for k in ("median", "p95", "max")), "%s: %s not filled: %s" % (name, stage, q))
        check(q["median"] <= q["p95"] <= q["max"], "%s: %s quantiles out of order: %s" % (name, stage, q))
    check(row["stages_ms"]["frame"]["median"] > 0, name + ": frame time 0")
    check(all(number(row["render_call_ms"][k]) for k in ("median", "p95", "max")), name + ": render_call_ms")
    b = row["back_to_back"]
    check(b["frames"] == 2 and number(b["ms"]) and number(b["fps"]) and b["fps"] > 0, name + ": back_to_back %s" % b)
    w, h = row["width"], row["height"]
    check(row["pixels"] == w * h, name + ": pixels")
    check(row["triangles"] == 4 * RESOLUTION * RESOLUTION, name + ": triangles %s" % row["triangles"])
    check(row["tiles"] == -(-w // TILE) * -(-h // TILE), name + ": tiles %s" % row["tiles"])
    for k in ("visible_triangles", "references", "ray_triangle_tests", "ray_tests_performed", "hit_pixels"):
        check(isinstance(row[k], int) and row[k] > 0, "%s: %s = %s" % (name, k, row[k]))
    # The tests run: at most the counter (every reference of a slab times its live rays), at least one
    # per hit pixel (its winner was tested).
    check(row["hit_pixels"] <= row["ray_tests_performed"] <= row["ray_triangle_tests"],
          "%s: tests run %s against hit pixels %s and the counter %s" %
          (name, row["ray_tests_performed"], row["hit_pixels"], row["ray_triangle_tests"]))
    check(0 <= row["tiles_exited_early"] <= row["tiles"], name + ": tiles_exited_early")
    check(row["device_memory_used_bytes"] is None, name + ": device memory on the cpu backend")
    check(row["backend"] == "cpu" and row["frames"] == 2 and row["warmup"] == 1, name + ": backend or frames")
    check(row["shadows"] is False and row["light"] is None, name + ": shadows off by default")
    check(all(row[k] == 0 for k in SHADOW_FIELDS), name + ": shadow counters 0 with shadows off")
    peers = row["peers"]
    if check(len(peers) == 1 and peers[0]["name"] == "cpu", name + ": peers %s" % peers):
        p = peers[0]
        check(p["status"] == "ok" and p["why"] is None, name + ": peer status %s" % p)
        check(all(number(p[k]) and p[k] > 0 for k in ("median_ms", "p95_ms", "max_ms", "ratio", "speedup")),
              name + ": peer numbers %s" % p)
        check(p["agreement"] == 1.0, name + ": the cpu peer sees other triangles than the cpu backend: %s" % p["agreement"])
    check_row_floor(row)


def check_row_floor(row):
    """The frame against its floor: every stage and the frame; a stage that moves bytes has a floor time
    and an x floor; the ray cast its tests (the row's counter); the frame's floor the stages' sum."""
    name = "row %s" % row.get("index")
    floor = row.get("floor")
    if not check(isinstance(floor, dict), name + ": no floor: %s" % floor):
        return
    check(sorted(floor) == sorted(STAGES + ["frame"]), name + ": floor stages %s" % sorted(floor))
    for stage, f in floor.items():
        check(isinstance(f["bytes"], int) and f["bytes"] >= 0 and number(f["ms"]) and f["ms"] >= 0,
              "%s: floor of %s: %s" % (name, stage, f))
        if f["bytes"] > 0:
            check(number(f["ratio"]) and f["ratio"] > 0 and number(f["frac_copy"]) and f["frac_copy"] > 0,
                  "%s: floor of %s without a ratio: %s" % (name, stage, f))
    rc = floor["raycast"]
    check(rc["tests"] == row["ray_tests_performed"] and rc["bytes"] > 0 and number(rc["frac_tests"]),
          name + ": the ray cast's floor %s" % rc)
    check(floor["deform"]["tests"] is None and floor["normals"]["bytes"] == 0 and floor["normals"]["ratio"] is None,
          name + ": stages without tests or bytes")
    total = sum(f["ms"] for s, f in floor.items() if s != "frame")
    check(abs(floor["frame"]["ms"] - total) <= 1e-4 * total, name + ": frame floor %s, stages' sum %s"
          % (floor["frame"]["ms"], total))
    check(floor["frame"]["bytes"] == sum(f["bytes"] for s, f in floor.items() if s != "frame"), name + ": frame bytes")


def check_json(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    check(doc["schema"] == 1 and doc["program"] == "slabcast-bench", "schema/program")
    check(isinstance(doc["commit"], str) and doc["commit"], "commit")
    check("--peers cpu" in doc["command_line"], "command_line: %s" % doc["command_line"])
    check(doc["device"]["backend"] == "cpu" and doc["device"]["name"] == "cpu", "device %s" % doc["device"])
    check(isinstance(doc["device"]["threads"], int) and doc["device"]["threads"] >= 1, "device threads")
    lim = doc["limits"]
    check(isinstance(lim, dict) and doc["limits_error"] is None and doc["options"]["no_limits"] is False,
          "limits measured: %s, %s" % (lim, doc.get("limits_error")))
    if isinstance(lim, dict):
        check(all(number(lim[k]) and lim[k] > 0 for k in ("copy_gbs", "ray_tests_per_s", "copy_ms", "ray_ms")),
              "limits positive: %s" % lim)
        check(0 < lim["ray_hit_fraction"] < 1 and lim["copy_bytes"] == 256 << 20 and lim["runs"] >= 1
              and lim["threads"] == doc["device"]["threads"], "limits: %s" % lim)
    stages = doc["stages"]
    check(stages[:len(EYE_STAGES)] == EYE_STAGES and stages[-1] == "shade"
          and len(stages) == len(EYE_STAGES) + SHADOW_STAGE_COUNT + 1, "stages %s" % stages)
    shadow = stages[len(EYE_STAGES):-1]
    check(len(set(stages)) == len(stages) and all(n and n != "?" and not n.startswith("stage") for n in shadow),
          "the shadow stages named apart: %s" % shadow)
    STAGES[:] = stages
    o = doc["options"]
    check(o["sizes"] == ["%dx%d" % s for s in SIZES] and o["slabs"] == SLABS and o["peers"] == ["cpu"], "options %s" % o)
    check(o["vertex_order"] == "first-use", "options.vertex_order: the renderer's default, got %s" % o["vertex_order"])
    rows = doc["rows"]
    check(doc["configurations"] == 4 and len(rows) == 4 and doc["failed"] == 0, "4 rows, none failed")
    want = [(w, h, s) for (w, h) in SIZES for s in SLABS]
    check([(r["width"], r["height"], r["num_slabs"]) for r in rows] == want, "row order")
    for row in rows:
        check_row_json(row)
    return rows


def check_csv(path, rows):
    with open(path, newline="", encoding="utf-8") as f:
        text = f.read()
    check(text.endswith("\r\n"), "CSV lines end in CRLF")
    records = list(csv.reader(text.splitlines(keepends=True)))
    header, body = records[0], records[1:]
    check(len(body) == 8, "CSV: 4 configurations and 4 peer rows, got %d" % len(body))
    check(all(len(r) == len(header) for r in body), "CSV records as wide as the header")
    col = {name: i for i, name in enumerate(header)}
    ours = [r for r in body if r[col["kind"]] == "slabcast"]
    peers = [r for r in body if r[col["kind"]] == "peer"]
    check(len(ours) == 4 and len(peers) == 4, "CSV kinds")
    may_be_empty = {"error", "peer", "device_memory_used_bytes", "peer_agreement", "ratio", "speedup", "peer_note",
                    "peer_detail", "device_sms", "device_clock_khz", "driver_version", "runtime_version", "light_x",
                    "light_y", "light_z"}
    # x floor and the fractions are empty where a stage's floor is 0 (normals, reduce, scan, shadows off).
    floor_ratio = ("_x_floor", "_frac_copy", "_frac_tests")
    for r in ours:
        empty = [name for name, i in col.items() if r[i] == "" and name not in may_be_empty
                 and not name.endswith(floor_ratio)]
        check(not empty, "CSV row %s: empty %s" % (r[col["config"]], empty))
        for stage in STAGES + ["frame"]:
            if int(r[col[stage + "_floor_bytes"]]) > 0:
                check(r[col[stage + "_x_floor"]] != "", "CSV row %s: %s_x_floor empty" % (r[col["config"]], stage))
    for r in body:
        check(float(r[col["limits_copy_gbs"]]) > 0 and float(r[col["limits_ray_tests_per_s"]]) > 0, "CSV limits")
    for r in peers:
        for name in ("frame_median_ms", "frame_p95_ms", "frame_max_ms", "peer_agreement", "ratio", "speedup"):
            check(r[col[name]] != "", "CSV peer row %s: empty %s" % (r[col["config"]], name))
        check(float(r[col["peer_agreement"]]) == 1.0, "CSV peer agreement")
    for r, j in zip(ours, rows):
        check(abs(float(r[col["frame_median_ms"]]) - j["stages_ms"]["frame"]["median"]) < 1e-5, "CSV = JSON frame median")
        check(int(r[col["references"]]) == j["references"], "CSV = JSON references")
        check(int(r[col["raycast_floor_bytes"]]) == j["floor"]["raycast"]["bytes"], "CSV = JSON ray cast floor bytes")


def check_svg(path):
    root = ET.parse(path).getroot()
    ns = "{http://www.w3.org/2000/svg}"
    check(root.tag == ns + "svg", "SVG root")
    texts = ["".join(t.itertext()) for t in root.iter(ns + "text")]
    for title in ("Frame time per stage", "Frame time against triangles", "Frame time against pixels"):
        check(any(title in t for t in texts), "SVG panel " + title)
    check(len(list(root.iter(ns + "circle"))) == 8, "SVG: a point per configuration on each log-log panel")
    check(any(t == "1k" for t in texts), "SVG: log axis labels")


def check_png(binary, work):
    png = os.path.join(work, "bench.PNG")
    if os.path.exists(png):
        os.remove(png)
    r = run(binary, ["--backend", "cpu", "--resolution", "8", "--size", "32x24", "--frames", "1", "--warmup", "0",
                     "--plot", png, "--no-limits"])
    if not check(r.returncode == 0, "PNG run: exit %d: %s" % (r.returncode, r.stderr)):
        return
    check("floor: not measured (--no-limits)" in r.stdout and "limits of" not in r.stderr,
          "--no-limits: no floor:\n" + r.stdout)
    with open(png, "rb") as f:
        head = f.read(26)
    check(head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", "PNG signature and header")
    check(int.from_bytes(head[16:20], "big") == 1000 and int.from_bytes(head[20:24], "big") == 900,
          "PNG of 1000x900")
    check(head[24] == 8 and head[25] == 6, "PNG: 8-bit RGBA")


def check_shadows(binary, work):
    """--shadows off,on with --images: the rows side by side, the shadow fields, our picture."""
    js, cs = os.path.join(work, "shadows.json"), os.path.join(work, "shadows.csv")
    pics = os.path.join(work, "pictures")
    os.makedirs(pics, exist_ok=True)
    for n in os.listdir(pics):
        os.remove(os.path.join(pics, n))
    r = run(binary, ["--backend", "cpu", "--resolution", str(RESOLUTION), "--size", "64x48", "--frames", "2",
                     "--warmup", "1", "--shadows", "off,on", "--images", pics, "--json", js, "--csv", cs,
                     "--vertex-order", "as-loaded"])
    if not check(r.returncode == 0, "shadows run: exit %d: %s" % (r.returncode, r.stderr)):
        return
    check("x 2 shadow settings" in r.stderr, "the shadow settings counted: %s" % r.stderr)
    check("shadows: point light (" in r.stdout, "the table's shadow line:\n" + r.stdout)
    with open(js, encoding="utf-8") as f:
        doc = json.load(f)
    check(doc["options"]["shadows"] == ["off", "on"] and doc["options"]["images"] == pics
          and doc["options"]["vertex_order"] == "as-loaded", "options %s" % doc["options"])
    off, on = doc["rows"]
    check(off["shadows"] is False and on["shadows"] is True, "rows: shadows off then on")
    check(off["light"] is None and all(off[k] == 0 for k in SHADOW_FIELDS), "row off: no light, counters 0")
    light = on["light"]
    check(light is not None and light["type"] == "point" and all(number(v) for v in light["position"]),
          "row on: the light %s" % light)
    check(on["shadow_lights"] == 1 and 1 <= on["light_views"] <= 6, "row on: lights and views")
    check(on["shadow_receivers"] == on["hit_pixels"] > 0, "row on: a receiver per hit pixel")
    check(on["shadow_ray_tests"] > 0 and on["shadow_references"] > 0, "row on: shadow work counted")
    check(0 < on["shadow_rays_blocked"] < on["shadow_receivers"], "row on: some pixels in shadow, not all")
    shadow_stages = doc["stages"][len(EYE_STAGES):-1]
    for stage in shadow_stages:
        check(number(on["stages_ms"][stage]["median"]) and number(off["stages_ms"][stage]["median"]),
              "stage %s timed in both rows" % stage)
    check(sum(on["stages_ms"][s]["median"] for s in shadow_stages) > 0, "row on: the shadow pass takes time")
    check(all(off["floor"][s]["bytes"] == 0 and off["floor"][s]["ratio"] is None for s in shadow_stages),
          "row off: the shadow stages have no floor")
    check(all(on["floor"][s]["bytes"] > 0 and number(on["floor"][s]["ratio"]) for s in shadow_stages),
          "row on: each shadow stage has its floor")
    check(on["floor"]["shadow-cast"]["tests"] == on["shadow_ray_tests"], "row on: the shadow cast's tests")
    with open(cs, newline="", encoding="utf-8") as f:
        records = list(csv.reader(f.read().splitlines(keepends=True)))
    col = {name: i for i, name in enumerate(records[0])}
    check([rec[col["shadows"]] for rec in records[1:]] == ["off", "on"], "CSV shadows column")
    check(records[1][col["light_x"]] == "" and number(float(records[2][col["light_x"]])), "CSV light columns")
    check(int(records[2][col["shadow_receivers"]]) == on["shadow_receivers"], "CSV = JSON shadow receivers")
    names = sorted(os.listdir(pics))
    check(names == ["slabcast-shadow-2.png"], "pictures: %s" % names)
    if names:
        with open(os.path.join(pics, names[0]), "rb") as f:
            head = f.read(26)
        check(head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == 64
              and int.from_bytes(head[20:24], "big") == 48, "our picture: a 64x48 PNG")


def check_failures(binary, work):
    r = run(binary, ["--slabs", "0"])
    check(r.returncode == 2 and "--slabs '0'" in r.stderr and "1 .. 1024" in r.stderr, "bad usage: %s" % r.stderr)
    r = run(binary, ["--plot", os.path.join(work, "bench.pdf")])
    check(r.returncode == 2 and "--plot" in r.stderr and ".svg or .png" in r.stderr, "--plot .pdf: %s" % r.stderr)
    r = run(binary, ["--shadows", "maybe"])
    check(r.returncode == 2 and "--shadows 'maybe'" in r.stderr and "off, on" in r.stderr, "bad --shadows: %s" % r.stderr)
    r = run(binary, ["--images", work])
    check(r.returncode == 2 and "--images" in r.stderr and "--shadows on" in r.stderr, "--images alone: %s" % r.stderr)
    r = run(binary, ["--peers", "nosuch"])
    check(r.returncode == 2 and "unknown peer" in r.stderr and "cpu" in r.stderr, "unknown peer: %s" % r.stderr)
    missing = os.path.join(work, "missing.obj")
    js = os.path.join(work, "failed.json")
    r = run(binary, ["builtin", missing, "--backend", "cpu", "--resolution", "8", "--size", "32x24", "--frames", "1",
                     "--warmup", "0", "--json", js])
    check(r.returncode == 1, "a missing model exits 1, not %d" % r.returncode)
    check("[2/2] missing 32x24" in r.stderr and "missing.obj" in r.stderr, "the failure names the configuration: %s" % r.stderr)
    with open(js, encoding="utf-8") as f:
        doc = json.load(f)
    check(doc["failed"] == 1 and doc["rows"][0]["status"] == "ok" and doc["rows"][1]["status"] == "failed",
          "failed row in JSON")
    check(doc["rows"][1]["stages_ms"]["frame"]["median"] is None, "failed row's numbers are null")


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    binary, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    js, cs, svg = (os.path.join(work, n) for n in ("bench.json", "bench.csv", "bench.svg"))
    for p in (js, cs, svg):
        if os.path.exists(p):
            os.remove(p)
    args = ["--backend", "cpu", "--resolution", str(RESOLUTION), "--size", ",".join("%dx%d" % s for s in SIZES),
            "--slabs", ",".join(map(str, SLABS)), "--tile", str(TILE), "--frames", "2", "--warmup", "1",
            "--json", js, "--csv", cs, "--plot", svg, "--peers", "cpu"]
    r = run(binary, args)
    if not check(r.returncode == 0, "exit %d: %s" % (r.returncode, r.stderr)):
        return 1
    check("4 configurations (1 model x 1 subdivision level x 1 deformer set x 2 sizes x 1 tile size x 2 slab counts"
          in r.stderr, "the count is said before the run: %s" % r.stderr)
    check("[1/4]" not in r.stderr, "no progress line when stderr is not a terminal")
    table = [l for l in r.stdout.splitlines() if l.strip().startswith(("1 ", "2 ", "3 ", "4 "))]
    check(len(table) >= 4, "table rows on stdout:\n" + r.stdout)
    check(r.stdout.count("peer cpu:") == 4 and "agreement 1.0000" in r.stdout, "peer lines in the table")
    check("limits of cpu: copy " in r.stderr, "the limits said before the run: %s" % r.stderr)
    check("x floor per stage" in r.stdout and "floor ms per stage" in r.stdout, "the floor tables:\n" + r.stdout)
    rows = check_json(js)
    check_csv(cs, rows)
    check_svg(svg)
    check_png(binary, work)
    check_shadows(binary, work)
    check_failures(binary, work)
    print("run_bench_e2e: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
