"""Shared by the viewer's Xvfb tests (run_viewer_drop.py, run_viewer_progress.py): a private Xvfb, the
slabcast viewer started on it with --state-log, its logged state lines, and the test's report."""
import json, os, subprocess, sys, time


def start_xvfb(screen="640x480x24"):
    """An Xvfb on a free display number (-displayfd); returns (process, environment for clients)."""
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    num = os.fdopen(r).readline().strip()
    env = dict(os.environ, DISPLAY=":" + num)
    env.pop("WAYLAND_DISPLAY", None)
    return xvfb, env


class Viewer:
    """The viewer (BINARY ARGS... --state-log WORK/state.jsonl), its output in WORK/viewer.out."""

    def __init__(self, binary, args, work, env):
        self.log, self.out = os.path.join(work, "state.jsonl"), os.path.join(work, "viewer.out")
        self.proc = subprocess.Popen([binary, *args, "--state-log", self.log], cwd=work, env=env,
                                     stdout=open(self.out, "w"), stderr=subprocess.STDOUT)

    def output(self):
        return open(self.out).read()

    def states(self):
        try:
            return [json.loads(l) for l in open(self.log) if l.strip()]
        except FileNotFoundError:
            return []

    def _wait(self, done, what, timeout):
        end = time.time() + timeout
        while time.time() < end:
            s = self.states()
            got = done(s)
            if got is not None:
                return got
            if self.proc.poll() is not None:
                raise RuntimeError(f"the viewer exited ({self.proc.returncode}): {self.output()}")
            time.sleep(0.05)
        raise RuntimeError(f"no state line with {what} after {timeout} s")

    def wait_count(self, n, timeout=20.0):
        """The state lines once there are at least n."""
        return self._wait(lambda s: s if len(s) >= n else None, f"number {n}", timeout)

    def wait_for(self, pred, what, timeout=20.0):
        """The first state line for which pred holds."""
        return self._wait(lambda s: next((x for x in s if pred(x)), None), what, timeout)


def finish(failures, *procs):
    """Stops the processes, prints each failure and exits 1 if there was one, else 0."""
    for p in procs:
        p.kill()
    for f in failures:
        print("FAIL:", f)
    sys.exit(1 if failures else 0)
