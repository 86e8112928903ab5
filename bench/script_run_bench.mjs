// script_run's figures (docs/benchmarks.md, "script_run"): a run of an empty main through the
// daemon, against Node's own start-up in the same run, and 1,000 desk calls from one script.
// Starts its own `shuttle daemon --backend mock` on a private socket and stops it at the end.
//   usage: node bench/script_run_bench.mjs SHUTTLE_BIN [RUNS]

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const shuttle = process.argv[2];
const runs = Number(process.argv[3] ?? 30);
if (!shuttle) {
    console.error('usage: node bench/script_run_bench.mjs SHUTTLE_BIN [RUNS]');
    process.exit(2);
}

const dir = mkdtempSync(path.join(tmpdir(), 'script-run-bench-'));
const env = { ...process.env, SHUTTLE_SOCKET: path.join(dir, 'desk.sock'), SHUTTLE_CONFIG: path.join(dir, 'config.toml') };

function median(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
}
function p99(values) {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)];
}

// One wire call on a fresh connection, as `shuttle mcp` makes it; resolves the parsed response.
function call(tool, args) {
    return new Promise((resolve, reject) => {
        const socket = net.connect(env.SHUTTLE_SOCKET);
        const payload = Buffer.from(JSON.stringify({ agent_id: '', tool, args }));
        const header = Buffer.alloc(4);
        header.writeUInt32BE(payload.length);
        let buffer = Buffer.alloc(0);
        socket.on('connect', () => socket.write(Buffer.concat([header, payload])));
        socket.on('data', (d) => {
            buffer = Buffer.concat([buffer, d]);
            if (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
                socket.end();
                resolve(JSON.parse(buffer.subarray(4, 4 + buffer.readUInt32BE(0)).toString()));
            }
        });
        socket.on('error', reject);
    });
}

const daemon = spawn(shuttle, ['daemon', '--backend', 'mock'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
try {
    await new Promise((resolve, reject) => {
        let err = '';
        daemon.stderr.on('data', (d) => { err += d; if (err.includes('listening on')) resolve(); });
        daemon.on('exit', (code) => reject(new Error(`the daemon exited (${code}): ${err}`)));
    });

    const node = [];
    for (let i = 0; i < runs + 2; i++) {
        const t0 = performance.now();
        spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
        if (i >= 2)
            node.push(performance.now() - t0);
    }
    const empty = [];
    for (let i = 0; i < runs + 2; i++) {
        const t0 = performance.now();
        const r = await call('script_run', { code: 'export function main() {}' });
        if (r.is_error)
            throw new Error(r.text);
        if (i >= 2)
            empty.push(performance.now() - t0);
    }
    const calls = await call('script_run', { code: `export async function main() {
        const times = [];
        for (let i = 0; i < 1000; i++) {
            const t0 = performance.now();
            await desk.windows();
            times.push(performance.now() - t0);
        }
        times.sort((a, b) => a - b);
        return { p50: times[500], p99: times[989], total: times.reduce((a, b) => a + b, 0) };
    }` });
    if (calls.is_error)
        throw new Error(calls.text);
    const perCall = JSON.parse(calls.text).result;

    const row = (what, value, target) => console.log(`${what.padEnd(58)} ${value.padStart(10)}   ${target}`);
    console.log(`script_run, ${runs} runs each after 2 warm-ups (median, p99):`);
    row("Node's own start-up (node -e '')", `${median(node).toFixed(1)} ms`, `p99 ${p99(node).toFixed(1)} ms (the floor)`);
    row('script_run of an empty main, wire call to answer', `${median(empty).toFixed(1)} ms`,
        `p99 ${p99(empty).toFixed(1)} ms; target <= 80 ms; ${(median(empty) - median(node)).toFixed(1)} ms over Node's start-up`);
    row('1,000 desk.windows() calls from one script, per call', `${perCall.p50.toFixed(3)} ms`,
        `p99 ${perCall.p99.toFixed(3)} ms; target p50 <= 0.3 ms; all 1,000 in ${perCall.total.toFixed(0)} ms`);
} finally {
    daemon.kill('SIGTERM');
    await new Promise((resolve) => daemon.on('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
}
