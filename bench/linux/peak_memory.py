#!/usr/bin/python3
"""Peak memory (VmHWM) of a nish-driver process after it read one window whole, through MCP on
stdio. Prints one JSON line: {"vm_hwm_kb", "elements"}.

usage: peak_memory.py NISH_DRIVER_BIN PID
"""
import json
import subprocess
import sys


def main():
    binary, pid = sys.argv[1], int(sys.argv[2])
    proc = subprocess.Popen([binary, "mcp", "--backend", "linux", "--consent", "auto"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def call(i, name, args):
        req = {"jsonrpc": "2.0", "id": i, "method": "tools/call", "params": {"name": name, "arguments": args}}
        proc.stdin.write(json.dumps(req) + "\n")
        proc.stdin.flush()
        return json.loads(proc.stdout.readline())

    call(1, "start_session", {})
    reply = call(2, "get_window_state", {"pid": pid, "max_elements": 5000, "max_depth": 200})
    elements = reply["result"]["structuredContent"].get("total_elements")
    call(3, "get_window_state", {"pid": pid, "skeleton": True})
    with open(f"/proc/{proc.pid}/status") as f:
        hwm = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    proc.stdin.close()
    proc.wait(timeout=10)
    print(json.dumps({"vm_hwm_kb": hwm, "elements": elements}))


if __name__ == "__main__":
    main()
