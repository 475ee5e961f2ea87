#!/usr/bin/env python3
"""Drives the real slabcast viewer under Xvfb (Mesa, CPU backend) with synthetic X input (xdotool):
for every entry of the viewer's binding table (read from `slabcast --help`), a key press or mouse
drag, then a check of the state the viewer logs after it (--state-log): among them L (shadows, the
default light set when none is), 8 / Shift+8 (the shadow views) and Ctrl+Left drag (the light orbits
the model's centre at its distance). Then the window's image: with the HUD off it equals the
headless renderer's image of the same frame and camera (with --shadows in the shadow view too); with
the HUD on it differs from it only inside the HUD's rectangle, and does differ there.
usage: run_viewer_input.py SLABCAST_BINARY WORK_DIR. Exit 77 (skipped) without Xvfb or xdotool."""
import json, math, os, re, shutil, struct, subprocess, sys, time, zlib

from viewer_harness import Viewer, require_tools, start_xvfb, xdo as xdo_on

BIN, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
require_tools("Xvfb", "xdotool")
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)
failures = []


def fail(msg):
    print("FAIL:", msg)
    failures.append(msg)


def read_png(path):
    """RGBA rows, top row first (8-bit RGBA, non-interlaced: what slabcast writes)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, = struct.unpack(">I", data[pos:pos + 4])
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        if kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 4 + 1, [], bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
        for i in range(len(line)):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else (b if pb <= pc else c))) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, rows


# ---- the binding table, as --help prints it -------------------------------------------------------
help_text = subprocess.run([BIN, "--help"], capture_output=True, text=True, check=True).stdout
table = help_text.split("viewer keys and mouse")[1].splitlines()[1:]
names = [m.group(2) for m in (re.match(r"  (.{16}) (\S+)\s+\S", line) for line in table) if m]
if len(names) < 20:
    print("FAIL: could not read the binding table from --help:\n" + help_text)
    sys.exit(1)

# ---- the viewer and the input ---------------------------------------------------------------------
xvfb, env = start_xvfb()
open(os.path.join(WORK, "slabcast-0001.png"), "w").write("kept")  # never overwritten
# Three model files for Tab: two small meshes and one that cannot load (Tab to it keeps the model shown).
MODELS = [os.path.join(WORK, n) for n in ("first.obj", "second.obj", "missing.obj")]
open(MODELS[0], "w").write("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
open(MODELS[1], "w").write("".join(f"v {x} {y} {z}\n" for x in (0, 1) for y in (0, 1) for z in (0, 1)) +
                           "f 1 2 4 3\nf 5 7 8 6\nf 1 5 6 2\nf 3 4 8 7\nf 1 3 7 5\nf 2 6 8 4\n")
viewer = Viewer(BIN, ["--window", "--backend", "cpu", *MODELS, "--size", "320x240", "--tile", "8", "--slabs", "16"],
                WORK, env)


def xdo(*args, timeout=20):
    return xdo_on(env, *args, timeout=timeout)


def wait_state(count, timeout=15.0):
    """The state logged as line number `count` (1-based), waiting for it."""
    return viewer.state(count, timeout)


try:
    wid = xdo("search", "--sync", "--onlyvisible", "--name", "^slabcast", timeout=30).split()[0]
    start = wait_state(1)
    assert start["event"] == "start", start
    xdo("mousemove", "--window", wid, 160, 120)
    xdo("windowfocus", wid)
except Exception as e:  # noqa: BLE001 - any failure to start is the test's failure
    print("FAIL: the viewer's window:", e)
    viewer.proc.kill()
    xvfb.kill()
    sys.exit(1)


def drag(button, shift=False, ctrl=False):
    args = ["mousemove", "--window", wid, 120, 100]
    held = (["shift"] if shift else []) + (["ctrl"] if ctrl else [])
    for key in held:
        args += ["keydown", key]
    args += ["mousedown", button]
    for i in range(1, 6):
        args += ["mousemove", "--window", wid, 120 + 10 * i, 100 + 4 * i, "sleep", "0.02"]
    args += ["mouseup", button]
    for key in reversed(held):
        args += ["keyup", key]
    xdo(*args)


def sub(a, b): return [x - y for x, y in zip(a, b)]
def dot(a, b): return sum(x * y for x, y in zip(a, b))
def norm(a): return math.sqrt(dot(a, a))
def close(a, b, tol=1e-3): return all(abs(x - y) <= tol * max(1.0, abs(y)) for x, y in zip(a, b))
def dist(s): return norm(sub(s["eye"], s["target"]))


def fwd(s):
    d = sub(s["target"], s["eye"])
    return [x / norm(d) for x in d]


def right(s):
    f = fwd(s)
    r = [-f[2], 0.0, f[0]]  # forward x world up
    return [x / norm(r) for x in r]


def moved_along(b, a, axis, sign):
    m = sub(a["eye"], b["eye"])
    return close(sub(a["target"], b["target"]), m) and sign * dot(m, axis) > 0.5 * norm(m) > 0


def toggled(key):
    return lambda b, a: a[key] == 1 - b[key]


def fov_by(delta):
    return lambda b, a: abs(a["fov"] - b["fov"] - delta) < 1e-3


# name: (the input, the check of (before, after))
cases = {
    "orbit": (lambda: drag(1), lambda b, a: not close(a["eye"], b["eye"]) and close(a["target"], b["target"])
              and abs(dist(a) - dist(b)) < 1e-3 * dist(b)),
    "pan": (lambda: drag(3), lambda b, a: not close(a["eye"], b["eye"])
            and close(sub(a["target"], b["target"]), sub(a["eye"], b["eye"]))),
    "pan-middle": (lambda: drag(2), lambda b, a: not close(a["eye"], b["eye"])
                   and close(sub(a["target"], b["target"]), sub(a["eye"], b["eye"]))),
    "pan-shift": (lambda: drag(1, shift=True), lambda b, a: not close(a["eye"], b["eye"])
                  and close(sub(a["target"], b["target"]), sub(a["eye"], b["eye"]))),
    "zoom": (lambda: xdo("click", 4), lambda b, a: abs(dist(a) - 0.9 * dist(b)) < 1e-3 * dist(b)
             and close(a["target"], b["target"])),
    "fly-forward": (lambda: xdo("key", "w"), lambda b, a: moved_along(b, a, fwd(b), +1)),
    "fly-back": (lambda: xdo("key", "s"), lambda b, a: moved_along(b, a, fwd(b), -1)),
    "fly-left": (lambda: xdo("key", "a"), lambda b, a: moved_along(b, a, right(b), -1)),
    "fly-right": (lambda: xdo("key", "d"), lambda b, a: moved_along(b, a, right(b), +1)),
    "fly-down": (lambda: xdo("key", "q"), lambda b, a: moved_along(b, a, [0, 1, 0], -1)),
    "fly-up": (lambda: xdo("key", "e"), lambda b, a: moved_along(b, a, [0, 1, 0], +1)),
    "frame": (lambda: xdo("key", "f"), lambda b, a: close(a["target"], start["target"])
              and abs(dist(a) - dist(start)) < 1e-3 * dist(start) * 10 and a["fov"] == b["fov"]),
    "fov-in": (lambda: xdo("key", "equal"), fov_by(-5)),
    "fov-in-keypad": (lambda: xdo("key", "KP_Add"), fov_by(-5)),
    "fov-out": (lambda: xdo("key", "minus"), fov_by(+5)),
    "fov-out-keypad": (lambda: xdo("key", "KP_Subtract"), fov_by(+5)),
    "reset": (lambda: xdo("key", "r"), lambda b, a: close(a["eye"], start["eye"]) and close(a["target"], start["target"])
              and abs(a["fov"] - start["fov"]) < 1e-3),
    "print-camera": (lambda: xdo("key", "p"), lambda b, a: printed_camera_matches(a)),
    "cull": (lambda: xdo("key", "b"), toggled("cull")),
    "flat": (lambda: xdo("key", "n"), toggled("flat")),
    "deform-next": (lambda: xdo("key", "t"), lambda b, a: a["deform"] != b["deform"]),
    "pause": (lambda: xdo("key", "space"), toggled("paused")),
    "step-forward": (lambda: xdo("key", "Right"), lambda b, a: a["paused"] == 1 and b["paused"] == 1
                     and abs(a["time"] - b["time"] - 1 / 60) < 1e-5),
    "step-back": (lambda: xdo("key", "Left"), lambda b, a: a["paused"] == 1 and abs(b["time"] - a["time"] - 1 / 60) < 1e-5),
    "tile-smaller": (lambda: xdo("key", "bracketleft"), lambda b, a: a["tile"] == b["tile"] // 2),
    "tile-larger": (lambda: xdo("key", "bracketright"), lambda b, a: a["tile"] == b["tile"] * 2),
    "slabs-fewer": (lambda: xdo("key", "comma"), lambda b, a: a["slabs"] == b["slabs"] // 2),
    "slabs-more": (lambda: xdo("key", "period"), lambda b, a: a["slabs"] == b["slabs"] * 2),
    "hud": (lambda: xdo("key", "h"), lambda b, a: a["hud"] == 1 - b["hud"] and (a["hud_rect"][2] > 0) == (a["hud"] == 1)),
    "help": (lambda: xdo("key", "F1"), toggled("help")),
    "help-question": (lambda: xdo("key", "question"), toggled("help")),
    "vsync": (lambda: xdo("key", "v"), toggled("vsync")),
    "fullscreen": (lambda: xdo("key", "F11"), toggled("fullscreen")),
    "screenshot": (lambda: xdo("key", "ctrl+s"), lambda b, a: a["screenshots"] == b["screenshots"] + 1
                   and os.path.getsize(os.path.join(WORK, f"slabcast-{a['screenshots'] + 1:04d}.png")) > 100
                   and open(os.path.join(WORK, "slabcast-0001.png")).read() == "kept"),
}
HEAT_DEFAULT = {"tiles": 1024, "tests": 256, "shadow-tests": 256}  # render_tuning.h: SC_HEAT_MAX_TILE, _TESTS


def heat_by(factor):
    return lambda b, a: abs(a["heat_max"] - factor * (b["heat_max"] or HEAT_DEFAULT[b["mode"]])) < 1e-3


def scaled(key, factor):
    return lambda b, a: abs(a[key] - factor * b[key]) < 1e-4 * abs(b[key])


def model_moved(step):
    """Tab: the next model in the list, or the same one when the next cannot load (missing.obj)."""
    def check(b, a):
        want = (b["model_index"] + step) % b["model_count"]
        if MODELS[want].endswith("missing.obj"):
            return a["model_index"] == b["model_index"] and a["model"] == b["model"]
        return a["model_index"] == want and a["model"] == MODELS[want] and a["model_count"] == len(MODELS)
    return check


cases.update({
    "deform-more": (lambda: xdo("key", "Up"), scaled("deform_amount", 1.25)),
    "deform-less": (lambda: xdo("key", "Down"), scaled("deform_amount", 0.8)),
    "speed-up": (lambda: xdo("key", "Prior"), scaled("deform_speed", 2.0)),
    "speed-down": (lambda: xdo("key", "Next"), scaled("deform_speed", 0.5)),
    "heat-max-up": (lambda: xdo("key", "0"), heat_by(2.0)),
    "heat-max-down": (lambda: xdo("key", "9"), heat_by(0.5)),
    "model-next": (lambda: xdo("key", "Tab"), model_moved(+1)),
    "model-previous": (lambda: xdo("key", "shift+Tab"), model_moved(-1)),
})
MODE_KEYS = {"shaded": "1", "id": "2", "normals": "3", "depth": "4", "tiles": "5", "slab": "6", "tests": "7",
             "shadow": "8", "shadow-tests": "shift+8"}
for mode, key in MODE_KEYS.items():
    cases["mode-" + mode] = ((lambda k=key: xdo("key", k)), (lambda b, a, m=mode: a["mode"] == m))


def default_light(s):
    """The default light of the model's framing: centre + 3 x radius x normalize(1, 2, 1)."""
    return [c + 3 * s["radius"] * u / math.sqrt(6) for c, u in zip(s["center"], (1, 2, 1))]


def shadows_toggled(b, a):
    """L: shadows flip; turned on without a light, the default light is set; the camera stays."""
    if a["shadows"] != 1 - b["shadows"] or a["eye"] != b["eye"] or a["lights"] < 1:
        return False
    if b["lights"] == 0:
        return a["light_type"] == "point" and close(a["light"], default_light(a), 1e-5)
    return a["light"] == b["light"] and a["light_type"] == b["light_type"]


def light_moved(b, a):
    """Ctrl+Left drag: the first light orbits the framing centre at its distance; the camera stays."""
    if a["lights"] < 1 or a["eye"] != b["eye"] or a["target"] != b["target"] or a["center"] != b["center"]:
        return False
    if a["light_type"] == "directional":
        return not close(a["light"], b["light"]) and abs(norm(a["light"]) - norm(b["light"])) < 1e-4 * norm(b["light"])
    before = default_light(a) if b["lights"] == 0 else b["light"]
    d0, d1 = norm(sub(before, a["center"])), norm(sub(a["light"], a["center"]))
    return not close(a["light"], before) and abs(d1 - d0) < 1e-4 * d0


cases.update({
    "shadows": (lambda: xdo("key", "l"), shadows_toggled),
    "light-move": (lambda: drag(1, ctrl=True), light_moved),
})


def printed_camera_matches(a):
    time.sleep(0.2)
    lines = [l for l in viewer.output().splitlines() if l.startswith("--camera ")]
    if not lines:
        return False
    v = [float(x) for x in lines[-1].split()[1].split(",")]
    return close(v[:3], a["eye"]) and close(v[3:6], a["target"]) and abs(v[6] - a["fov"]) < 1e-3


missing = [n for n in names if n not in cases and n != "quit"]
if missing:
    fail(f"bindings without a test case: {missing}")
# The order: the camera moves before frame and reset, pause before the steps; a few twice (back).
order = ["orbit", "pan", "pan-middle", "pan-shift", "zoom", "fly-forward", "fly-back", "fly-left", "fly-right",
         "fly-down", "fly-up", "frame", "fov-in", "fov-in-keypad", "fov-out", "fov-out-keypad", "pan", "reset",
         "print-camera"] + ["mode-" + m for m in ["id", "normals", "depth", "tiles"]] + \
        ["heat-max-up", "heat-max-up", "heat-max-down"] + ["mode-" + m for m in ["slab", "tests", "shaded"]] + \
        ["deform-more", "deform-less", "speed-up", "speed-down", "model-next", "model-next", "model-previous",
         "model-previous"] + \
        ["light-move", "shadows", "mode-shadow", "light-move", "mode-shadow-tests", "heat-max-up", "shadows",
         "shadows", "mode-shaded", "shadows"] + \
        ["cull", "cull", "flat", "flat", "deform-next", "pause", "step-forward", "step-back", "pause",
         "tile-smaller", "tile-larger", "slabs-fewer", "slabs-more", "hud", "hud", "help", "help",
         "help-question", "help-question", "vsync", "vsync", "fullscreen", "fullscreen", "screenshot", "screenshot"]
order += [n for n in names if n not in order and n != "quit" and n in cases]
count = 1
for name in order:
    before = wait_state(count)
    try:
        cases[name][0]()
        after = wait_state(count + 1)
        count += 1
    except Exception as e:  # noqa: BLE001
        fail(f"{name}: {e}")
        break
    if after["event"] != name:
        fail(f"{name}: the viewer logged {after['event']!r}")
    elif not cases[name][1](before, after):
        fail(f"{name}: state before {json.dumps(before)}\n      after {json.dumps(after)}")
    else:
        print(f"ok {name}")
# quit: Esc ends the viewer with status 0.
try:
    xdo("key", "Escape")
    rc = viewer.proc.wait(timeout=15)
    if rc != 0:
        fail(f"quit: the viewer exited {rc}: {viewer.output()}")
    else:
        print("ok quit")
except Exception as e:  # noqa: BLE001
    viewer.proc.kill()
    fail(f"quit: {e}")

# ---- the window's image against the renderer's own ------------------------------------------------
common = ["--backend", "cpu", "--resolution", "24", "--size", "160x120", "--frames", "3", "--time", "0.5",
          "--camera", "0.4,1.2,4.5,0,0.1,0,40", "--mode", "normals"]


def run(args, what):
    r = subprocess.run([BIN, *common, *args], cwd=WORK, env=env, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        fail(f"{what}: exited {r.returncode}: {r.stdout}{r.stderr}")
    return r.returncode == 0


ok = run(["--headless", "--out", "headless.png"], "headless") and \
    run(["--window", "--no-hud", "--out", "nohud.png"], "viewer without HUD") and \
    run(["--window", "--out", "hud.png", "--state-log", "hud.jsonl"], "viewer with HUD")
if ok:
    _, _, ref = read_png(os.path.join(WORK, "headless.png"))
    w, h, nohud = read_png(os.path.join(WORK, "nohud.png"))
    _, _, hud = read_png(os.path.join(WORK, "hud.png"))
    if nohud != ref:
        diff = sum(1 for y in range(h) for x in range(w) if nohud[y][4 * x:4 * x + 4] != ref[y][4 * x:4 * x + 4])
        fail(f"HUD off: the window's image differs from the renderer's in {diff} of {w * h} pixels")
    else:
        print("ok HUD off: window image == renderer image")
    hud_state = json.loads(open(os.path.join(WORK, "hud.jsonl")).readline())
    rx, ry, rw, rh = hud_state["hud_rect"]
    others = [hud_state.get("legend_rect", [0, 0, 0, 0]), hud_state.get("banner_rect", [0, 0, 0, 0])]
    outside = inside = 0
    for y in range(h):
        for x in range(w):
            same = hud[y][4 * x:4 * x + 4] == ref[y][4 * x:4 * x + 4]
            if rx <= x < rx + rw and ry <= y < ry + rh:
                inside += not same
            elif not any(ox <= x < ox + ow and oy <= y < oy + oh for ox, oy, ow, oh in others):
                outside += not same
    if rw <= 0 or rh <= 0 or outside or inside < rw * rh // 4:
        fail(f"HUD on: rect {rx},{ry} {rw}x{rh}: {inside} pixels differ inside, {outside} outside")
    else:
        print(f"ok HUD on: {inside} pixels differ inside its rectangle {rw}x{rh}, none outside")

# ---- the colour legend, the stage graph and the notice banner (HUD on) ------------------------------
# The heat view has a scale: its legend is drawn at the bottom-left (an opaque colour bar from the
# renderer's own colours: its hot end is pure white, which the translucent panels never give); the
# shaded view has none. Outside the HUD, legend and banner rectangles the window is the renderer's image.
STAGE_COLOURS = {(78, 121, 167), (242, 142, 43), (225, 87, 89), (118, 183, 178), (89, 161, 79), (237, 201, 72),
                 (176, 122, 161), (255, 157, 167), (156, 117, 95), (148, 103, 189), (23, 190, 207), (188, 189, 34),
                 (227, 119, 194), (186, 176, 172)}  # hud_graphics.c


def with_opts(args, **opts):
    """`common` with some options' values replaced (--size, --mode)."""
    out = list(args)
    for name, value in opts.items():
        out[out.index("--" + name) + 1] = value
    return out


def inside(rect, x, y):
    rx, ry, rw, rh = rect
    return rx <= x < rx + rw and ry <= y < ry + rh


def overlay_check(mode, tag):
    failures_before = len(failures)
    args = with_opts(common, size="320x240", mode=mode)
    ref_png, win_png, log = (os.path.join(WORK, f"{tag}-{k}") for k in ("headless.png", "window.png", "state.jsonl"))
    for extra, what in ((["--headless", "--out", ref_png], "headless"),
                        (["--window", "--out", win_png, "--state-log", log], "viewer with HUD")):
        r = subprocess.run([BIN, *args, *extra], cwd=WORK, env=env, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            fail(f"{tag}: {what} exited {r.returncode}: {r.stdout}{r.stderr}")
            return
    _, _, ref = read_png(ref_png)
    w, h, img = read_png(win_png)
    st = json.loads(open(log).readline())
    rects = {k: st.get(k, [0, 0, 0, 0]) for k in ("hud_rect", "legend_rect", "banner_rect")}
    px = lambda rows, x, y: rows[y][4 * x:4 * x + 4]  # noqa: E731
    outside = sum(1 for y in range(h) for x in range(w) if not any(inside(r, x, y) for r in rects.values())
                  and px(img, x, y) != px(ref, x, y))
    if outside:
        fail(f"{tag}: {outside} pixels differ from the renderer's image outside the overlays {rects}")
    hud_colours = {tuple(px(img, x, y)[:3]) for y in range(h) for x in range(w) if inside(rects["hud_rect"], x, y)}
    if len(STAGE_COLOURS & hud_colours) < len(STAGE_COLOURS) - 2:
        fail(f"{tag}: the stage graph's key colours are missing from the HUD {rects['hud_rect']}: "
             f"{len(STAGE_COLOURS & hud_colours)} of {len(STAGE_COLOURS)}")
    lx, ly, lw, lh = rects["legend_rect"]
    if mode == "shaded":
        if lw or lh:
            fail(f"{tag}: a legend {rects['legend_rect']} for a mode without a scale")
    else:
        cells = [(x, y) for y in range(ly, ly + lh) for x in range(lx, lx + lw)]
        differ = sum(1 for x, y in cells if px(img, x, y) != px(ref, x, y))
        white = sum(1 for x, y in cells if px(img, x, y)[:3] == b"\xff\xff\xff")
        if lw <= 0 or lh <= 0 or ly + lh != h or lx != 0 or differ < len(cells) // 6 or white == 0:
            fail(f"{tag}: legend {rects['legend_rect']} in a {w}x{h} window: {differ} of {len(cells)} pixels "
                 f"drawn, {white} pure white (the bar's hot end)")
    bx, by, bw, bh = rects["banner_rect"]
    if bw and bh and not any(px(img, x, y) != px(ref, x, y) for y in range(by, by + bh) for x in range(bx, bx + bw)):
        fail(f"{tag}: the banner {rects['banner_rect']} is not drawn")
    if len(failures) == failures_before:
        print(f"ok overlays, {mode} view: hud {rects['hud_rect']} legend {rects['legend_rect']} "
              f"banner {rects['banner_rect']}, the rest is the renderer's image")


for mode in ("tiles", "shaded"):
    overlay_check(mode, "overlay-" + mode)


# ---- shadows in the window ---------------------------------------------------------------------------
# --shadows in the window renders what it renders headless (the default light, the shadow view), and
# the shadow pass ran there with some pixels in shadow.
def shadow_view_check():
    args = with_opts(common, mode="shadow") + ["--shadows"]
    ref_png, win_png, stats = (os.path.join(WORK, "shadow-" + k) for k in ("headless.png", "window.png", "stats.json"))
    for extra, what in ((["--headless", "--out", ref_png, "--stats-json", stats], "headless"),
                        (["--window", "--no-hud", "--out", win_png], "viewer")):
        r = subprocess.run([BIN, *args, *extra], cwd=WORK, env=env, capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            fail(f"shadows: {what} exited {r.returncode}: {r.stdout}{r.stderr}")
            return
    last = json.load(open(stats))["last_frame"]
    if last["shadow_lights"] != 1 or last["shadow_receivers"] != last["hit_pixels"] or not last["shadow_rays_blocked"]:
        fail(f"shadows: the headless run's shadow pass: {last}")
    _, _, ref = read_png(ref_png)
    w, h, img = read_png(win_png)
    if img != ref:
        diff = sum(1 for y in range(h) for x in range(w) if img[y][4 * x:4 * x + 4] != ref[y][4 * x:4 * x + 4])
        fail(f"shadows: the window's shadow view differs from the renderer's in {diff} of {w * h} pixels")
    else:
        print(f"ok shadows: window shadow view == renderer's, {last['shadow_rays_blocked']} of "
              f"{last['shadow_receivers']} pixels in shadow")


shadow_view_check()

if viewer.proc.poll() is None:
    viewer.proc.kill()
xvfb.kill()
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"PASS: {len(names)} bindings driven through X input, images checked")
