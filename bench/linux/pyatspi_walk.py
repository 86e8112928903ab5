#!/usr/bin/python3
"""The baseline for whole-window reads: a pyatspi walk of one window reading role, name, states
and extents of every node, as Python peers do. Prints one JSON line: {"nodes", "ms"}.

usage: pyatspi_walk.py PID TITLE [REPEATS]
"""
import json
import sys
import time

import pyatspi


def find_frame(pid, title):
    desktop = pyatspi.Registry.getDesktop(0)
    for app in desktop:
        if app is None:
            continue
        try:
            if app.get_process_id() != pid:
                continue
        except Exception:
            continue
        best = None
        for child in app:
            if child is None:
                continue
            if child.name == title:
                return child
            best = best or child
        return best
    return None


def walk(node):
    count = 0
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        n.getRole()
        n.name
        n.getState().getStates()
        try:
            n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        except NotImplementedError:
            pass
        count += 1
        stack.extend(reversed(list(n)))
    return count


def main():
    pid = int(sys.argv[1])
    title = sys.argv[2]
    repeats = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    frame = None
    deadline = time.time() + 20
    while frame is None and time.time() < deadline:
        frame = find_frame(pid, title)
        if frame is None:
            time.sleep(0.2)
    if frame is None:
        print(json.dumps({"error": "window not found"}))
        sys.exit(1)
    times = []
    nodes = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        nodes = walk(frame)
        times.append((time.perf_counter() - t0) * 1000)
    times.sort()
    print(json.dumps({"nodes": nodes, "ms": times[len(times) // 2]}))


if __name__ == "__main__":
    main()
