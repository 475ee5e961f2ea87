"""Shared by the viewer's Xvfb tests (run_viewer_input.py, run_viewer_drop.py, run_viewer_progress.py):
the tools a test needs, a private Xvfb, xdotool on it, the slabcast viewer started on it with
--state-log, its logged state lines, and the test's report."""
import json, os, shutil, subprocess, sys, time


def require_tools(*tools):
    """Exits 77 (skipped), naming the Debian packages, when one of the programs is not installed."""
    for tool in tools:
        if not shutil.which(tool):
            print(f"SKIP: {tool} not installed (apt-get install xvfb xdotool)")
            sys.exit(77)


def start_xvfb(screen="640x480x24"):
    """An Xvfb on a free display number (-displayfd); returns (process, environment for clients)."""
    r, w = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", screen, "-nolisten", "tcp"],
                            pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    with os.fdopen(r) as f:
        num = f.readline().strip()
    if not num:
        xvfb.kill()
        print("FAIL: Xvfb did not start")
        sys.exit(1)
    env = dict(os.environ, DISPLAY=":" + num)
    env.pop("WAYLAND_DISPLAY", None)
    return xvfb, env


def xdo(env, *args, timeout=30):
    """xdotool with these arguments on the display of env; its output, or RuntimeError on a failure."""
    r = subprocess.run(["xdotool", *map(str, args)], env=env, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"xdotool {' '.join(map(str, args))}: {r.stderr.strip()}")
    return r.stdout.strip()


class Viewer:
    """The viewer (BINARY ARGS... --state-log WORK/state.jsonl), its output in WORK/viewer.out."""

    def __init__(self, binary, args, work, env):
        self.log, self.out = os.path.join(work, "state.jsonl"), os.path.join(work, "viewer.out")
        self.proc = subprocess.Popen([binary, *args, "--state-log", self.log], cwd=work, env=env,
                                     stdout=open(self.out, "w"), stderr=subprocess.STDOUT)

    def output(self):
        return open(self.out).read()

    def states(self):
        """The state lines written so far. The viewer may be writing the last one as it is read: a last
        line without its newline is left for the next read; any other line must parse."""
        try:
            text = open(self.log).read()
        except FileNotFoundError:
            return []
        lines = text.split("\n")
        complete = lines[:-1]  # the part after the last newline is still being written
        return [json.loads(l) for l in complete if l.strip()]

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

    def state(self, n, timeout=20.0):
        """State line number n (1-based), waiting for it."""
        return self.wait_count(n, timeout)[n - 1]

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
