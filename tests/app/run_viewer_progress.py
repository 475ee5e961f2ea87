#!/usr/bin/env python3
"""The viewer's in-window progress bar, on the real window under Xvfb (Mesa, CPU backend): Tab starts
the load of a model that is a named pipe, which the test feeds slowly, so the load lasts as long as the
test wants (the test holds the pipe open for reading and writing from before the Tab: the loader opens
files without blocking, and a pipe with no writer reads as empty). Once the load has run past the bar's delay (APP_PROGRESS_DELAY, 0.5 s) and crossed another MiB
(the loader reports progress per MiB read), the window must show the bar: the screen cleared to the bar's background, the bar's frame and
track in the middle (no fill: a pipe's size is unknown) and the load's text beside it. Then the rest of
the model arrives, the load ends and the model is shown (--state-log).
usage: run_viewer_progress.py SLABCAST_BINARY WORK_DIR. Exit 77 (skipped) without Xvfb, xdotool or
python3-xlib."""
import os, shutil, sys, time

from viewer_harness import Viewer, finish, require_tools, start_xvfb, xdo as xdo_on

BIN, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
try:
    from Xlib import X, display as xdisplay
except ImportError:
    print("SKIP: python3-xlib not installed (apt-get install python3-xlib)")
    sys.exit(77)
require_tools("Xvfb", "xdotool")
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

W, H = 400, 300
xvfb, env = start_xvfb()
first, slow = os.path.join(WORK, "first.obj"), os.path.join(WORK, "slow.obj")
open(first, "w").write("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
os.mkfifo(slow)
viewer = Viewer(BIN, ["--window", "--backend", "cpu", first, slow, "--size", f"{W}x{H}"], WORK, env)
failures = []

# The colours draw_progress (app/slabcast/viewer/viewer_glfw.c) clears with, as 8-bit values.
BACKGROUND, FRAME, TRACK = (20, 20, 26), (153, 153, 166), (38, 38, 46)


wait_for = viewer.wait_for


def xdo(*args):
    return xdo_on(env, *args)


def vertex_lines(first_index, nbytes):
    lines, size, i = [], 0, first_index
    while size < nbytes:
        line = f"v {i % 97 * 0.01:.4f} {i % 89 * 0.01:.4f} {i % 83 * 0.01:.4f}\n"
        lines.append(line)
        size += len(line)
        i += 1
    return "".join(lines), i


def write_all(fd, text):
    data = text.encode()
    while data:
        data = data[os.write(fd, data):]


def near(px, want, tol=3):
    return all(abs(a - b) <= tol for a, b in zip(px, want))


try:
    wid = int(xdo("search", "--sync", "--onlyvisible", "--name", "^slabcast").split()[0])
    wait_for(lambda s: s["event"] == "start", "the start")
    pipe = os.open(slow, os.O_RDWR)  # a writer is there when the viewer opens the model
    xdo("windowfocus", wid)
    xdo("key", "Tab")
    mib = 1 << 20
    chunk, n = vertex_lines(4, mib + mib // 4)
    chunk = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n" + chunk  # the four corners the faces use
    write_all(pipe, chunk)  # the first MiB: before the bar's delay
    time.sleep(0.9)
    chunk, n = vertex_lines(n, 5 * mib // 2)
    write_all(pipe, chunk)  # two MiB more after the delay: the bar is drawn, then the viewer waits for more
    time.sleep(1.0)
    d = xdisplay.Display(env["DISPLAY"])
    win = d.create_resource_object("window", wid)
    geo = win.get_geometry()
    img = win.get_image(0, 0, geo.width, geo.height, X.ZPixmap, 0xFFFFFFFF)
    bpp = len(img.data) // (geo.width * geo.height)

    def pixel(x, y):  # top-left origin; BGRX
        o = (y * geo.width + x) * bpp
        return img.data[o + 2], img.data[o + 1], img.data[o]

    # the bar of draw_progress in this window's size
    bw, bh = geo.width * 3 // 5, max(geo.height // 40, 6)
    bx, by = (geo.width - bw) // 2, geo.height // 2 - bh // 2  # GL: from the bottom
    top = geo.height - (by + bh)  # the bar's top row, from the top
    checks = [("the background in a corner", pixel(3, 3), BACKGROUND),
              ("the background below the text", pixel(geo.width // 2, geo.height - 4), BACKGROUND),
              ("the track in the bar's middle", pixel(geo.width // 2, top + bh // 2), TRACK),
              ("the track at its left end", pixel(bx + 1, top + bh // 2), TRACK),
              ("the frame left of the bar", pixel(bx - 1, top + bh // 2), FRAME),
              ("the frame above the bar", pixel(geo.width // 2, top - 1), FRAME)]
    bad = [f"{what}: {got}, expected {want}" for what, got, want in checks if not near(got, want)]
    # the load's text: light pixels in the rows below the bar (HUD text, from the bar's left end)
    text = sum(1 for y in range(top + bh + 3, min(geo.height, top + bh + 40)) for x in range(bx, bx + bw)
               if min(pixel(x, y)) > 150)
    if text < 20:
        bad.append(f"the load's text: {text} light pixels below the bar")
    if bad:
        failures.append("the progress bar: " + "; ".join(bad))
    else:
        print(f"ok the progress bar while the load waits: background, frame, track and {text} pixels of text")
    write_all(pipe, "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n")
    os.close(pipe)  # the end of the model: the load finishes
    s = wait_for(lambda s: s["model"] == slow, "the piped model shown")
    if s["model_index"] != 1:
        failures.append(f"after the load: {s}")
    else:
        print("ok the load ended and the piped model is shown")
except Exception as e:  # noqa: BLE001
    failures.append(str(e))
finish(failures, viewer.proc, xvfb)
