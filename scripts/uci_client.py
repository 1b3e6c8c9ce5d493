"""Minimal raw UCI client for measurement scripts (no python-chess needed): starts an engine,
sends lines, reads lines with timestamps."""
import queue
import subprocess
import threading
import time


def last_info(lines):
    """Fields of the last `info depth ... nps ...` line as a dict of name -> text."""
    for line in reversed(lines):
        if line.startswith("info depth") and " nps " in line:
            w = line.split()
            return {w[i]: w[i + 1] for i in range(len(w) - 1)
                    if w[i] in ("depth", "nodes", "nps", "time", "tbhits", "hashfull")}
    return {}


class Engine:
    def __init__(self, path, options=None):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.q = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("uci")
        self.wait(lambda l: l == "uciok")
        for k, v in (options or {}).items():
            self.send(f"setoption name {k} value {v}")
        self.send("isready")
        self.wait(lambda l: l == "readyok", timeout=120)

    def _read(self):
        for line in self.p.stdout:
            self.q.put((time.perf_counter(), line.rstrip("\n")))
        self.q.put((time.perf_counter(), None))

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return time.perf_counter()

    def wait(self, pred, timeout=60):
        """Lines up to the first matching one; returns (time of that line, lines)."""
        lines = []
        deadline = time.perf_counter() + timeout
        while True:
            t, line = self.q.get(timeout=max(0.001, deadline - time.perf_counter()))
            if line is None:
                raise RuntimeError("engine exited")
            lines.append(line)
            if pred(line):
                return t, lines

    def quit(self):
        try:
            self.send("quit")
            self.p.wait(timeout=10)
        except Exception:
            self.p.kill()
