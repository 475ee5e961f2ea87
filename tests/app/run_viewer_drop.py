#!/usr/bin/env python3
"""Drops files on the real slabcast viewer window under Xvfb the way a file manager does (the XDND
protocol, as an X client of its own: XdndEnter, XdndPosition, XdndDrop, then the text/uri-list
selection), and checks through the viewer's --state-log that each dropped file joined the model list
and is shown, and that a dropped file that cannot load leaves the model shown.
usage: run_viewer_drop.py SLABCAST_BINARY WORK_DIR. Exit 77 (skipped) without Xvfb or python3-xlib."""
import os, shutil, sys, time

from viewer_harness import Viewer, finish, require_tools, start_xvfb

BIN, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
try:
    from Xlib import X, display as xdisplay, protocol
except ImportError:
    print("SKIP: python3-xlib not installed (apt-get install python3-xlib)")
    sys.exit(77)
require_tools("Xvfb")
shutil.rmtree(WORK, ignore_errors=True)
os.makedirs(WORK)

xvfb, env = start_xvfb()
tetra = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"
files = {n: os.path.join(WORK, n) for n in ("a b.obj", "c.obj", "broken.obj")}
open(files["a b.obj"], "w").write(tetra)  # a space: the URI escapes it
open(files["c.obj"], "w").write(tetra + "v 2 2 2\nf 2 3 5\n")
open(files["broken.obj"], "w").write("v 0 0 0\nf 1 2 x\n")
viewer = Viewer(BIN, ["--window", "--backend", "cpu", "--resolution", "16", "--size", "200x150"], WORK, env)
wait_states = viewer.wait_count
failures = []


d = xdisplay.Display(env["DISPLAY"])
atom = lambda name: d.intern_atom(name)  # noqa: E731
A = {n: atom(n) for n in ("XdndAware", "XdndEnter", "XdndPosition", "XdndStatus", "XdndDrop", "XdndFinished",
                          "XdndSelection", "XdndActionCopy", "text/uri-list", "WM_NAME")}


def find_viewer_window(timeout=20.0):
    end = time.time() + timeout
    while time.time() < end:
        for child in d.screen().root.query_tree().children:
            if child.get_full_property(A["XdndAware"], X.AnyPropertyType):
                return child
        time.sleep(0.1)
    raise RuntimeError("no XdndAware window (the viewer's) appeared")


def send(target, kind, data):
    ev = protocol.event.ClientMessage(window=target, client_type=kind, data=(32, data))
    target.send_event(ev)
    d.flush()


def wait_client_message(kind, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        while d.pending_events():
            ev = d.next_event()
            if ev.type == X.ClientMessage and ev.client_type == kind:
                return ev
            if ev.type == X.SelectionRequest:
                answer_selection(ev)
        time.sleep(0.01)
    raise RuntimeError(f"no {d.get_atom_name(kind)} from the viewer")


def answer_selection(ev):
    ev.requestor.change_property(ev.property, ev.target, 8, URIS.encode())
    reply = protocol.event.SelectionNotify(time=ev.time, requestor=ev.requestor, selection=ev.selection,
                                           target=ev.target, property=ev.property)
    ev.requestor.send_event(reply)
    d.flush()


def drop(target, paths):
    """One drag and drop of `paths` onto the middle of target, as a file manager does it."""
    global URIS
    URIS = "".join("file://" + p.replace(" ", "%20") + "\r\n" for p in paths)
    source.set_selection_owner(A["XdndSelection"], X.CurrentTime)
    send(target, A["XdndEnter"], [source.id, 5 << 24, A["text/uri-list"], 0, 0])
    send(target, A["XdndPosition"], [source.id, 0, (100 << 16) | 75, X.CurrentTime, A["XdndActionCopy"]])
    status = wait_client_message(A["XdndStatus"])
    if not status.data[1][1] & 1:
        raise RuntimeError("the viewer did not accept the drop (XdndStatus without the accept bit)")
    send(target, A["XdndDrop"], [source.id, 0, X.CurrentTime, 0, 0])
    wait_client_message(A["XdndFinished"])


try:
    target = find_viewer_window()
    source = d.screen().root.create_window(0, 0, 1, 1, 0, d.screen().root_depth)
    wait_states(1)
    drop(target, [files["a b.obj"], files["c.obj"]])
    s = wait_states(2)[-1]
    if not (s["event"] == "drop" and s["model_count"] == 3 and s["model"] == files["a b.obj"] and s["model_index"] == 1):
        failures.append(f"two files dropped: state {s}")
    else:
        print("ok two files dropped: both joined the list, the first is shown")
    drop(target, [files["broken.obj"]])
    s = wait_states(3)[-1]
    if not (s["event"] == "drop" and s["model_count"] == 4 and s["model"] == files["a b.obj"]):
        failures.append(f"a file that cannot load: state {s}")
    elif "broken.obj:2" not in viewer.output():
        failures.append("a file that cannot load: no message naming broken.obj:2")
    else:
        print("ok a dropped file that cannot load: the model shown stays, the message names the file and line")
except Exception as e:  # noqa: BLE001
    failures.append(str(e))
finish(failures, viewer.proc, xvfb)
