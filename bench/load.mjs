// Load and soak (docs/benchmarks.md, "Load and soak"): N MCP clients (the real MCP TypeScript SDK
// client over stdio) x M calls on each program, each program behind ONE daemon of its own on the
// mock backend:
//   - nish-driver: `nish-driver daemon --backend mock --consent auto --socket <tmp>` and per client
//     `nish-driver mcp --connect --socket <tmp>`; reads (list_windows, get_window_state full and
//     skeleton, get_session_state) and acts on the mock (click the Settings check box, set_value and
//     type_text on its Username field, set_value on its Volume slider);
//   - shuttle: `shuttle daemon --backend mock` and per client `shuttle mcp`; desk verbs (desk_windows,
//     desk_snapshot, desk_find, desk_read) and acts (desk_press / desk_act on the check box,
//     desk_type into Username and desk_key BackSpace, which takes the typed character away again).
// Every act keeps working when repeated, and what the mock apps hold stays bounded (the Username
// field's length is printed at the end). The mock backend also logs every act in memory for its
// tests (DesktopState's synthetic_log and semantic_log), and a daemon never clears them: that
// growth shows in the RSS figures (docs/benchmarks.md, "Load and soak"; --reads-only leaves it out).
//
// Load mode (default): warm-up calls, then every client makes --calls calls; the table gives calls,
// errors, throughput, p50/p90/p99/max latency and the daemon's RSS (VmRSS), open fds and threads
// after the warm-up and at the end, measured while no call is in flight.
// Soak mode (--minutes N): the same mix without a call limit for N minutes per program (one program
// after the other), sampled every --sample-s seconds (the clients pause between calls for each
// sample); a line per sample and a verdict.
//
// Exit status 1 when a call failed (each failure is printed with its text), the daemon's RSS grew
// more than --rss-limit % over the first measurement after the warm-up, its fd count grew (more than
// --fd-slack), or a daemon died; 2 for bad arguments; 130 on Ctrl-C. The daemons, clients and the
// temporary directory (binaries are copied there first) are removed in every case.
//
//   usage: node bench/load.mjs [--program both|nish-driver|shuttle] [--clients 8] [--calls 10000]
//                             [--warmup 500] [--minutes N] [--sample-s 30] [--rss-limit 5]
//                             [--fd-slack 0] [--reads-only] [--bin-dir DIR]
//   binaries: --bin-dir, else $NISH_BENCH_BIN_DIR, else build/bin of this checkout. MALLOC_* and
//   GLIBC_TUNABLES pass through to the daemons (MALLOC_ARENA_MAX=1 tells fragmentation from growth).

import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repo = fileURLToPath(new URL('..', import.meta.url));

// ---------------------------------------------------------------------------------------------
// Arguments

const usage = `usage: node bench/load.mjs [--program both|nish-driver|shuttle] [--clients N] [--calls N]
       [--warmup N] [--minutes N] [--sample-s S] [--rss-limit PCT] [--fd-slack N] [--reads-only]
       [--bin-dir DIR]`;
let opts;
try {
    opts = parseArgs({
        options: {
            program: { type: 'string', default: 'both' },
            clients: { type: 'string', default: '8' },
            calls: { type: 'string', default: '10000' },
            warmup: { type: 'string', default: '500' },
            minutes: { type: 'string' },
            'sample-s': { type: 'string', default: '30' },
            'rss-limit': { type: 'string', default: '5' },
            'fd-slack': { type: 'string', default: '0' },
            'bin-dir': { type: 'string' },
            'reads-only': { type: 'boolean', default: false },
            help: { type: 'boolean', short: 'h' },
        },
    }).values;
} catch (err) {
    console.error(`bench/load: ${err.message}\n${usage}`);
    process.exit(2);
}
if (opts.help) {
    console.log(usage);
    process.exit(0);
}
function num(name, { min = 0, integer = true } = {}) {
    const v = Number(opts[name]);
    if (!Number.isFinite(v) || v < min || (integer && !Number.isInteger(v))) {
        console.error(`bench/load: --${name} must be a${integer ? 'n integer' : ' number'} >= ${min}, not ${opts[name]}\n${usage}`);
        process.exit(2);
    }
    return v;
}
const CLIENTS = num('clients', { min: 1 });
const CALLS = num('calls', { min: 1 });
const WARMUP = num('warmup');
const SOAK_MIN = opts.minutes === undefined ? null : num('minutes', { min: 0.05, integer: false });
const SAMPLE_S = num('sample-s', { min: 1, integer: false });
const RSS_LIMIT = num('rss-limit', { integer: false });
const FD_SLACK = num('fd-slack');
const READS_ONLY = opts['reads-only'];
if (!['both', 'nish-driver', 'shuttle'].includes(opts.program)) {
    console.error(`bench/load: --program is both, nish-driver or shuttle, not ${opts.program}`);
    process.exit(2);
}
const PROGRAMS = opts.program === 'both' ? ['nish-driver', 'shuttle'] : [opts.program];
const BIN_DIR = path.resolve(opts['bin-dir'] ?? process.env.NISH_BENCH_BIN_DIR ?? path.join(repo, 'build', 'bin'));
for (const p of PROGRAMS)
    if (!existsSync(path.join(BIN_DIR, p))) {
        console.error(`bench/load: ${p} not found in ${BIN_DIR}: build it, or pass --bin-dir (or NISH_BENCH_BIN_DIR)`);
        process.exit(2);
    }

// The SDK from the e2e tests' node_modules (scripts/setup installs them); no package of our own.
async function loadSdk() {
    for (const dir of ['tests/e2e', 'tests/e2e-shuttle', 'tests/e2e-clients']) {
        const req = createRequire(path.join(repo, dir, 'package.json'));
        let index, stdio;
        try {
            index = req.resolve('@modelcontextprotocol/sdk/client/index.js');
            stdio = req.resolve('@modelcontextprotocol/sdk/client/stdio.js');
        } catch {
            continue;
        }
        const { Client } = await import(pathToFileURL(index).href);
        const { StdioClientTransport } = await import(pathToFileURL(stdio).href);
        return { Client, StdioClientTransport };
    }
    console.error('bench/load: the MCP TypeScript SDK is not installed in tests/e2e: run scripts/setup --no-build');
    process.exit(2);
}
const { Client, StdioClientTransport } = await loadSdk();

// ---------------------------------------------------------------------------------------------
// What this run started, and its removal on every way out

const TMP = mkdtempSync(path.join(tmpdir(), 'nish-load-'));
const started = { daemons: new Set(), clients: new Set() };
let stopping = false;
let cleaned = null;

function waitExit(child, ms) {
    if (child.exitCode !== null || child.signalCode !== null)
        return Promise.resolve(true);
    return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms);
        child.once('exit', () => { clearTimeout(timer); resolve(true); });
    });
}

async function stopDaemon(d) {
    if (!started.daemons.has(d))
        return;
    started.daemons.delete(d);
    d.stopped = true;
    if (d.child.exitCode === null && d.child.signalCode === null) {
        d.child.kill('SIGTERM');
        if (!(await waitExit(d.child, 5000))) {
            d.child.kill('SIGKILL');
            await waitExit(d.child, 5000);
        }
    }
}

async function closeClient(c) {
    if (!started.clients.has(c))
        return;
    started.clients.delete(c);
    // The SDK ends stdin, then SIGTERM, then SIGKILL, waiting 2 s each; the ChildProcess object (not a
    // bare pid, which may be reused) makes sure of the end.
    const child = c.transport._process;
    await Promise.race([c.client.close().catch(() => {}), new Promise((r) => setTimeout(r, 6000))]);
    if (child && child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await waitExit(child, 2000);
    }
}

function cleanup() {
    cleaned ??= (async () => {
        stopping = true;
        await Promise.all([...started.clients].map(closeClient));
        await Promise.all([...started.daemons].map(stopDaemon));
        rmSync(TMP, { recursive: true, force: true });
    })();
    return cleaned;
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(sig, () => {
        if (stopping)
            return;
        console.error(`\nbench/load: ${sig}: stopping the daemons and clients this run started`);
        cleanup().finally(() => process.exit(130));
    });

// ---------------------------------------------------------------------------------------------
// Measuring

function procStatus(pid) {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number((text.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm')) ?? [])[1]);
    return { rssKb: field('VmRSS'), threads: field('Threads') };
}
function fdCount(pid) {
    return readdirSync(`/proc/${pid}/fd`).length;
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// The daemon's figures while no call is in flight: a moment for connections the clients closed to be
// closed on the daemon's side too, then the smallest fd count of three looks.
// (nish-driver's daemon closes a finished connection's descriptor within a second: its accept loop
// polls with a second's timeout and reaps then.)
async function quiet(d) {
    const pid = d.child.pid;
    const gone = () => {
        if (d.child.exitCode !== null || d.child.signalCode !== null || !existsSync(`/proc/${pid}/fd`))
            throw new Error(`the ${d.name} daemon exited (${d.child.exitCode ?? d.child.signalCode ?? 'gone'}): ${d.stderr.trim().slice(-2000)}`);
    };
    gone();
    await sleep(1200);
    gone();
    let fds = Infinity;
    let files = [];
    for (let i = 0; i < 3; i++) {
        const now = fdTargets(pid);
        if (now.length < fds) {
            fds = now.length;
            files = now.filter((t) => t.startsWith('/'));
        }
        await sleep(100);
    }
    return { fds, files, ...procStatus(pid) };
}
function fdTargets(pid) {
    return readdirSync(`/proc/${pid}/fd`).map((fd) => {
        try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
        } catch {
            return '?';
        }
    });
}

// The front processes' (the clients' servers: `nish-driver mcp --connect`, `shuttle mcp`) summed figures.
function frontsNow(clients) {
    let rssKb = 0, fds = 0;
    for (const c of clients) {
        const pid = c.transport.pid;
        try {
            rssKb += procStatus(pid).rssKb;
            fds += fdCount(pid);
        } catch { /* exited: a failure shows in the calls */ }
    }
    return { rssKb, fds };
}

function percentile(sorted, p) {
    if (sorted.length === 0)
        return NaN;
    return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
function stats(values) {
    const sorted = Float64Array.from(values).sort();
    return {
        n: sorted.length,
        p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99),
        max: sorted.length ? sorted[sorted.length - 1] : NaN,
    };
}

// ---------------------------------------------------------------------------------------------
// The two programs

function baseEnv(dir) {
    const env = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: path.join(dir, 'home'),
        XDG_RUNTIME_DIR: path.join(dir, 'run'),
        XDG_STATE_HOME: path.join(dir, 'state'),
        XDG_CONFIG_HOME: path.join(dir, 'config'),
        NISH_MOCK_FIXTURES: path.join(repo, 'fixtures', 'mock'),
    };
    for (const k of ['HOME', 'XDG_RUNTIME_DIR', 'XDG_STATE_HOME', 'XDG_CONFIG_HOME'])
        mkdirSync(env[k], { recursive: true, mode: 0o700 });
    // glibc's allocator settings pass through, to tell fragmentation from live growth
    // (MALLOC_ARENA_MAX=1 scripts/bench-load ...).
    for (const [k, v] of Object.entries(process.env))
        if ((k.startsWith('MALLOC_') || k === 'GLIBC_TUNABLES') && v !== undefined)
            env[k] = v;
    return env;
}

function textOf(result) {
    return (result.content ?? []).filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

const programs = {
    'nish-driver': {
        daemonArgs: (dir) => ['daemon', '--backend', 'mock', '--consent', 'auto', '--socket', path.join(dir, 'driver.sock')],
        daemonEnv: (dir) => ({ ...baseEnv(dir), NISH_AUDIT_LOG: path.join(dir, 'audit.jsonl') }),
        clientArgs: (dir) => ['mcp', '--connect', '--socket', path.join(dir, 'driver.sock')],
        clientEnv: (dir) => ({ ...baseEnv(dir), NISH_AUDIT_LOG: path.join(dir, 'audit.jsonl') }),
        // A session (the daemon's --consent auto grants it), then the Settings tokens from one read.
        async setup(c) {
            await c.must('start_session', { lease_s: 86400 });
            const read = await c.must('get_window_state', { app: 'Settings' });
            const token = (name) => {
                const e = read.structuredContent.elements.find((x) => x.name === name);
                if (!e)
                    throw new Error(`Settings has no element named ${name}`);
                return e.element_token;
            };
            return { remember: token('Remember me'), username: token('Username'), volume: token('Volume') };
        },
        // Ten calls a round: six reads, four acts. set_value puts Username back, so what type_text
        // appends stays at most a few characters a client.
        ops(t, k) {
            return [
                ['list_windows', () => ({})],
                ['get_window_state', () => ({ app: 'Settings' }), 'full Settings'],
                ['click', () => ({ element_token: t.remember }), 'check box'],
                ['get_window_state', () => ({ app: 'Chatter', skeleton: true }), 'skeleton Chatter'],
                ['set_value', () => ({ element_token: t.username, value: `load-${k}` }), 'Username'],
                ['get_window_state', () => ({ window_id: 62914561 }), 'full Calculator'],
                ['type_text', () => ({ element_token: t.username, text: 'ab' }), 'Username'],
                ['get_window_state', () => ({ app: 'Chatter' }), 'Chatter, 250 rows'],
                ['set_value', (i) => ({ element_token: t.volume, value: String((k * 13 + i) % 101) }), 'Volume'],
                ['get_session_state', () => ({})],
            ];
        },
        acts: new Set(['click', 'set_value', 'type_text']),
        async stateCheck(c) {
            const r = await c.must('get_window_state', { app: 'Settings' });
            const u = r.structuredContent.elements.find((x) => x.name === 'Username');
            return `Settings Username holds ${(u.value ?? '').length} characters`;
        },
    },
    shuttle: {
        daemonArgs: () => ['daemon', '--backend', 'mock'],
        daemonEnv: (dir) => ({ ...baseEnv(dir), SHUTTLE_SOCKET: path.join(dir, 'desk.sock'), SHUTTLE_CONFIG: path.join(dir, 'config.toml') }),
        clientArgs: () => ['mcp'],
        clientEnv: (dir) => ({ ...baseEnv(dir), SHUTTLE_SOCKET: path.join(dir, 'desk.sock'), SHUTTLE_CONFIG: path.join(dir, 'config.toml') }),
        async setup(c) {
            const snap = JSON.parse(textOf(await c.must('desk_snapshot', { window: 'Settings' })));
            const id = (name) => {
                const n = snap.nodes.find((x) => x.name === name);
                if (!n)
                    throw new Error(`Settings has no node named ${name}`);
                return n.id;
            };
            return { remember: id('Remember me'), username: id('Username') };
        },
        // Ten calls a round: six reads, four acts. Each client types one character into Username and
        // takes it away with BackSpace, so the field holds at most one character a client.
        ops(t) {
            return [
                ['desk_windows', () => ({})],
                ['desk_snapshot', () => ({ window: 'Settings' }), 'Settings'],
                ['desk_press', () => ({ id: t.remember }), 'check box'],
                ['desk_find', () => ({ name: 'Send', window: 'Chatter' }), 'Chatter'],
                ['desk_type', () => ({ id: t.username, text: 'a' }), 'Username'],
                ['desk_snapshot', () => ({ window: 'Calculator', text: true }), 'Calculator text'],
                ['desk_key', () => ({ keys: 'BackSpace', window: 'Settings' }), 'BackSpace'],
                ['desk_read', () => ({ id: t.remember }), 'check box'],
                ['desk_act', () => ({ id: t.remember, action: 'action' }), 'check box'],
                ['desk_find', () => ({ name: 'Remember', window: 'Settings' }), 'Settings'],
            ];
        },
        acts: new Set(['desk_press', 'desk_type', 'desk_key', 'desk_act']),
        async stateCheck(c, t) {
            const r = JSON.parse(textOf(await c.must('desk_read', { id: t.username })));
            return `Settings Username holds ${(r.value ?? '').length} characters`;
        },
    },
};

async function startDaemon(name, dir) {
    const spec = programs[name];
    const child = spawn(path.join(dir, 'bin', name), spec.daemonArgs(dir), {
        cwd: dir, env: spec.daemonEnv(dir), stdio: ['ignore', 'ignore', 'pipe'],
    });
    const d = { name, child, stderr: '' };
    started.daemons.add(d);
    // Always drained, so a chatty daemon never blocks on its stderr; the tail is kept for reports.
    child.stderr.on('data', (b) => { d.stderr = (d.stderr + b).slice(-16384); });
    await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${name} daemon did not listen within 10 s: ${d.stderr}`)), 10000);
        const onData = () => {
            if (d.stderr.includes('listening on')) {
                clearTimeout(timer);
                child.stderr.off('data', onData);
                child.off('exit', onExit);
                resolve();
            }
        };
        const onExit = (code, sig) => { clearTimeout(timer); reject(new Error(`${name} daemon exited (${code ?? sig}): ${d.stderr}`)); };
        child.stderr.on('data', onData);
        child.once('exit', onExit);
        onData();
    });
    return d;
}

async function startClient(name, dir, k) {
    const spec = programs[name];
    const transport = new StdioClientTransport({
        command: path.join(dir, 'bin', name), args: spec.clientArgs(dir), env: spec.clientEnv(dir), cwd: dir, stderr: 'pipe',
    });
    const c = { k, transport, stderr: '', transportErrors: [] };
    transport.stderr?.on('data', (b) => { c.stderr = (c.stderr + b).slice(-8192); });
    c.client = new Client({ name: `load-${k}`, version: '0.0.1' });
    c.client.onerror = (err) => { c.transportErrors.push(String(err?.message ?? err)); };
    started.clients.add(c);
    await c.client.connect(transport);
    c.must = async (tool, args) => {
        const r = await c.client.callTool({ name: tool, arguments: args });
        if (r.isError)
            throw new Error(`${tool} ${JSON.stringify(args)}: ${textOf(r)}`);
        return r;
    };
    return c;
}

// ---------------------------------------------------------------------------------------------
// One program's run

class Recorder {
    constructor() {
        this.all = [];
        this.byTool = new Map();
        this.reads = [];
        this.acts = [];
        this.window = [];
        this.errors = [];
        this.windowErrors = 0;
    }
    add(label, isAct, ms) {
        this.all.push(ms);
        this.window.push(ms);
        (isAct ? this.acts : this.reads).push(ms);
        let list = this.byTool.get(label);
        if (!list)
            this.byTool.set(label, (list = []));
        list.push(ms);
    }
}

const MAX_PRINTED_ERRORS = 20;

function fail(rec, program, c, tool, args, text) {
    rec.errors.push({ program, client: c.k, tool, args, text });
    rec.windowErrors++;
    if (rec.errors.length <= MAX_PRINTED_ERRORS)
        console.log(`ERROR ${program} client ${c.k}: ${tool} ${JSON.stringify(args)}: ${text}`);
    else if (rec.errors.length === MAX_PRINTED_ERRORS + 1)
        console.log(`ERROR ${program}: further errors are counted, not printed; a summary groups them at the end`);
}

// Runs client c's mix for `count` calls or until `until()` says stop; while `control.gate` is a
// promise, the client waits between calls (a soak sample).
async function runClient(program, c, tokens, rec, { count, until, measured, control }) {
    const spec = programs[program];
    const ops = spec.ops(tokens, c.k).filter(([tool]) => !(READS_ONLY && spec.acts.has(tool)));
    let i = c.next ?? c.k; // clients start at different places of the round
    let consecutive = 0;
    for (let n = 0; (count === undefined || n < count) && !stopping && !(until?.()); n++) {
        while (control?.gate) {
            c.idle = true;
            await control.gate;
        }
        c.idle = false;
        const [tool, argsOf, what] = ops[i % ops.length];
        const args = argsOf(i);
        i++;
        const t0 = performance.now();
        let bad = null;
        try {
            const r = await c.client.callTool({ name: tool, arguments: args });
            if (r.isError)
                bad = textOf(r) || JSON.stringify(r).slice(0, 500);
        } catch (err) {
            bad = `${err?.name ?? 'Error'}: ${err?.message ?? err}`;
        }
        const ms = performance.now() - t0;
        if (stopping)
            break;
        if (measured)
            rec.add(what ? `${tool} (${what})` : tool, spec.acts.has(tool), ms);
        if (bad !== null) {
            fail(rec, program, c, tool, args, bad + (c.stderr ? ` [front's stderr: ${c.stderr.trim().slice(-400)}]` : ''));
            if (++consecutive >= 50) {
                console.log(`ERROR ${program} client ${c.k}: 50 failures in a row; this client stops`);
                break;
            }
        } else {
            consecutive = 0;
        }
    }
    c.next = i;
    c.idle = true;
}

function fmtInt(n) {
    return Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-';
}
function fmtMs(n) {
    return Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '-';
}
function pct(from, to) {
    return ((to - from) / from) * 100;
}
function fmtPct(p) {
    return `${p >= 0 ? '+' : ''}${p.toFixed(2)}%`;
}

async function runProgram(program) {
    const dir = path.join(TMP, program);
    mkdirSync(path.join(dir, 'bin'), { recursive: true });
    // Run from copies, so a rebuild of the binary directory during the run does not change them.
    copyFileSync(path.join(BIN_DIR, program), path.join(dir, 'bin', program));
    if (program === 'shuttle' && existsSync(path.join(BIN_DIR, 'runtime')))
        cpSync(path.join(BIN_DIR, 'runtime'), path.join(dir, 'bin', 'runtime'), { recursive: true });

    const out = { program, rec: new Recorder(), notes: [], failures: [] };
    current = out;
    const d = await startDaemon(program, dir);
    let died = null;
    d.child.once('exit', (code, sig) => { if (!stopping && !d.stopped) died = `${program} daemon exited during the run (${code ?? sig}): ${d.stderr.trim().slice(-2000)}`; });
    out.beforeClients = await quiet(d);

    const clients = [];
    for (let k = 0; k < CLIENTS; k++)
        clients.push(await startClient(program, dir, k));
    const tokens = [];
    for (const c of clients)
        tokens.push(await programs[program].setup(c));

    // Warm-up: the same mix, not timed, so lazy initialisation and the allocator's arenas are in place.
    const warm = new Recorder();
    await Promise.all(clients.map((c, k) => runClient(program, c, tokens[k], warm, { count: WARMUP, measured: false })));
    for (const e of warm.errors)
        out.rec.errors.push({ ...e, warmup: true });
    out.start = await quiet(d);
    out.frontsStart = frontsNow(clients);

    if (SOAK_MIN === null) {
        const t0 = performance.now();
        await Promise.all(clients.map((c, k) => runClient(program, c, tokens[k], out.rec, { count: CALLS, measured: true })));
        out.wallS = (performance.now() - t0) / 1000;
        out.end = await quiet(d);
    } else {
        out.samples = [];
        const control = { gate: null };
        const deadline = performance.now() + SOAK_MIN * 60000;
        const t0 = performance.now();
        const running = Promise.all(clients.map((c, k) => runClient(program, c, tokens[k], out.rec,
            { until: () => performance.now() >= deadline, measured: true, control })));
        let finished = false;
        running.then(() => { finished = true; });
        console.log(`${program}: soak of ${SOAK_MIN} min, ${CLIENTS} clients, a sample every ${SAMPLE_S} s (after ${WARMUP} warm-up calls per client)`);
        console.log(`${'t (s)'.padStart(7)} ${'calls'.padStart(9)} ${'calls/s'.padStart(8)} ${'errors'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'max ms'.padStart(7)} ${'RSS KB'.padStart(9)} ${'RSS vs 1st'.padStart(10)} ${'fds'.padStart(4)} ${'threads'.padStart(7)}`);
        const line = (s) => console.log(`${s.t.toFixed(0).padStart(7)} ${fmtInt(s.calls).padStart(9)} ${fmtInt(s.rate).padStart(8)} ${String(s.errors).padStart(6)} ${fmtMs(s.p50).padStart(7)} ${fmtMs(s.p99).padStart(7)} ${fmtMs(s.max).padStart(7)} ${fmtInt(s.rssKb).padStart(9)} ${fmtPct(pct(out.start.rssKb, s.rssKb)).padStart(10)} ${String(s.fds).padStart(4)} ${String(s.threads).padStart(7)}`);
        line({ t: 0, calls: 0, rate: NaN, errors: 0, p50: NaN, p99: NaN, max: NaN, ...out.start });
        let last = performance.now();
        while (!finished && !stopping) {
            const wake = Math.min(deadline, last + SAMPLE_S * 1000);
            await Promise.race([sleep(Math.max(0, wake - performance.now())), running]);
            if (stopping)
                break;
            // Pause every client between calls, measure, go on.
            let open;
            control.gate = new Promise((r) => { open = r; });
            while (!finished && !clients.every((c) => c.idle))
                await sleep(5);
            const now = performance.now();
            const st = stats(out.rec.window);
            const m = await quiet(d);
            const s = { t: (now - t0) / 1000, calls: st.n, rate: st.n / ((now - last) / 1000), errors: out.rec.windowErrors, ...st, ...m };
            out.samples.push(s);
            line(s);
            out.rec.window = [];
            out.rec.windowErrors = 0;
            control.gate = null;
            open();
            last = performance.now();
            if (died || last >= deadline)
                break;
        }
        await running;
        out.wallS = (performance.now() - t0) / 1000;
        out.end = out.samples.at(-1) ?? (await quiet(d));
    }
    out.frontsEnd = frontsNow(clients);

    try {
        out.state = await programs[program].stateCheck(clients[0], tokens[0]);
    } catch (err) {
        out.state = `state check failed: ${err.message}`;
    }
    for (const c of clients)
        for (const e of c.transportErrors)
            out.notes.push(`client ${c.k}: SDK transport error: ${e}`);
    for (const c of clients)
        await closeClient(c);
    out.afterClients = died ? null : await quiet(d);
    await stopDaemon(d);
    out.daemonExit = d.child.exitCode ?? d.child.signalCode;
    if (died)
        out.failures.push(died);
    return out;
}

// ---------------------------------------------------------------------------------------------
// Verdicts and the table

function judge(r) {
    const f = r.failures;
    const errs = r.rec.errors.length;
    if (errs > 0)
        f.push(`${errs} call(s) failed`);
    const rssPeak = SOAK_MIN === null ? r.end.rssKb : Math.max(...r.samples.map((s) => s.rssKb), r.end.rssKb);
    r.rssGrowth = pct(r.start.rssKb, rssPeak);
    if (r.rssGrowth > RSS_LIMIT)
        f.push(`the daemon's RSS grew ${fmtPct(r.rssGrowth)} (${fmtInt(r.start.rssKb)} to ${fmtInt(rssPeak)} KB), over ${RSS_LIMIT}%`);
    const fdPeak = SOAK_MIN === null ? r.end.fds : Math.max(...r.samples.map((s) => s.fds), r.end.fds);
    if (fdPeak > r.start.fds + FD_SLACK)
        f.push(`the daemon's open fds grew from ${r.start.fds} to ${fdPeak}${FD_SLACK ? ` (slack ${FD_SLACK})` : ''}`);
    // Files the daemon opened on its first calls and keeps (nish-driver's audit log) are not growth.
    if (r.afterClients) {
        const lazyFiles = r.afterClients.files.filter((t) => !r.beforeClients.files.includes(t)).length;
        if (r.afterClients.fds > r.beforeClients.fds + lazyFiles + FD_SLACK)
            f.push(`the daemon holds ${r.afterClients.fds} fds after every client closed, ${r.beforeClients.fds} before any connected`);
    }
    if (r.daemonExit !== 0)
        f.push(`the daemon's exit on SIGTERM: ${r.daemonExit}`);
    r.ok = f.length === 0;
}

function printTable(results) {
    const rows = [];
    const row = (label, fn) => rows.push([label, ...results.map((r) => { try { return fn(r); } catch { return '-'; } })]);
    const total = (r) => stats(r.rec.all);
    row('clients x calls', (r) => SOAK_MIN === null ? `${CLIENTS} x ${fmtInt(CALLS)}` : `${CLIENTS} x ${SOAK_MIN} min`);
    row('calls timed (after warm-up)', (r) => fmtInt(r.rec.all.length));
    row('errors', (r) => String(r.rec.errors.length));
    row('wall time', (r) => `${r.wallS.toFixed(1)} s`);
    row('throughput', (r) => `${fmtInt(r.rec.all.length / r.wallS)} calls/s`);
    row('latency p50 / p90 ms', (r) => { const s = total(r); return `${fmtMs(s.p50)} / ${fmtMs(s.p90)}`; });
    row('latency p99 / max ms', (r) => { const s = total(r); return `${fmtMs(s.p99)} / ${fmtMs(s.max)}`; });
    row('reads p50 / p99 ms', (r) => { const s = stats(r.rec.reads); return `${fmtMs(s.p50)} / ${fmtMs(s.p99)}`; });
    row('acts p50 / p99 ms', (r) => { const s = stats(r.rec.acts); return `${fmtMs(s.p50)} / ${fmtMs(s.p99)}`; });
    row('daemon RSS start / end KB', (r) => `${fmtInt(r.start.rssKb)} / ${fmtInt(r.end.rssKb)}`);
    row(SOAK_MIN === null ? 'daemon RSS growth' : 'daemon RSS growth (peak sample)', (r) => fmtPct(r.rssGrowth));
    row('RSS growth per timed call', (r) => `${fmtInt(((r.end.rssKb - r.start.rssKb) * 1024) / r.rec.all.length)} B`);
    row('daemon fds start / end', (r) => `${r.start.fds} / ${r.end.fds}`);
    row('daemon fds before / after clients', (r) => `${r.beforeClients.fds} / ${r.afterClients?.fds ?? '-'}`);
    row('daemon threads start / end', (r) => `${r.start.threads} / ${r.end.threads}`);
    row('fronts RSS start / end KB (sum)', (r) => `${fmtInt(r.frontsStart.rssKb)} / ${fmtInt(r.frontsEnd.rssKb)}`);
    row('fronts fds start / end (sum)', (r) => `${r.frontsStart.fds} / ${r.frontsEnd.fds}`);
    row('verdict', (r) => (r.ok ? 'ok' : 'FAIL'));
    const widths = rows[0].map((_, i) => Math.max(...rows.map((x) => String(x[i]).length), i ? results[i - 1].program.length : 0));
    console.log(`${''.padEnd(widths[0])}   ${results.map((r, i) => r.program.padStart(widths[i + 1])).join('   ')}`);
    for (const x of rows)
        console.log(`${String(x[0]).padEnd(widths[0])}   ${x.slice(1).map((v, i) => String(v).padStart(widths[i + 1])).join('   ')}`);
}

function printPerTool(r) {
    console.log(`\n${r.program}, per call (ms):`);
    console.log(`  ${'call'.padEnd(34)} ${'calls'.padStart(9)} ${'p50'.padStart(7)} ${'p90'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(8)}`);
    for (const [label, list] of r.rec.byTool) {
        const s = stats(list);
        console.log(`  ${label.padEnd(34)} ${fmtInt(s.n).padStart(9)} ${fmtMs(s.p50).padStart(7)} ${fmtMs(s.p90).padStart(7)} ${fmtMs(s.p99).padStart(7)} ${fmtMs(s.max).padStart(8)}`);
    }
}

function printErrorSummary(program, errors) {
    if (errors.length === 0)
        return;
    const byText = new Map();
    for (const e of errors) {
        const key = `${e.tool}: ${e.text.split('\n')[0].slice(0, 300)}`;
        byText.set(key, (byText.get(key) ?? 0) + 1);
    }
    console.log(`${program}: ${errors.length} errors by call and text:`);
    for (const [key, n] of byText)
        console.log(`  ${String(n).padStart(6)} x ${key}`);
}

// ---------------------------------------------------------------------------------------------

let exitCode = 0;
let current = null; // the program running now and its recorder, for a failure's report
try {
    const mode = SOAK_MIN === null
        ? `load: ${CLIENTS} MCP clients x ${fmtInt(CALLS)} calls on each program`
        : `soak: ${CLIENTS} MCP clients for ${SOAK_MIN} min on each program`;
    console.log(`${mode}, one daemon each on the mock backend, after ${WARMUP} warm-up calls per client${READS_ONLY ? ', reads only' : ''}`);
    console.log(`binaries: copies of ${BIN_DIR}`);
    const results = [];
    for (const program of PROGRAMS) {
        const t0 = performance.now();
        if (SOAK_MIN === null)
            console.log(`${program}: running...`);
        const r = await runProgram(program);
        if (stopping)
            break;
        judge(r);
        results.push(r);
        if (SOAK_MIN === null)
            console.log(`${program}: done in ${((performance.now() - t0) / 1000).toFixed(1)} s (warm-up and start-up included)`);
    }
    if (!stopping) {
        console.log('');
        printTable(results);
        for (const r of results)
            printPerTool(r);
        console.log('');
        for (const r of results) {
            console.log(`${r.program}: mock state at the end: ${r.state}`);
            for (const n of r.notes)
                console.log(`${r.program}: note: ${n}`);
            printErrorSummary(r.program, r.rec.errors);
            console.log(`${r.program}: ${r.ok ? 'ok' : `FAIL: ${r.failures.join('; ')}`}`);
            if (!r.ok)
                exitCode = 1;
        }
        if (SOAK_MIN !== null)
            for (const r of results) {
                const s = stats(r.rec.all);
                console.log(`${r.program}: soak overall: ${fmtInt(s.n)} calls, p99 ${fmtMs(s.p99)} ms, per-sample p99 ${fmtMs(Math.min(...r.samples.map((x) => x.p99)))}..${fmtMs(Math.max(...r.samples.map((x) => x.p99)))} ms, RSS ${fmtInt(r.start.rssKb)} KB after warm-up, peak ${fmtPct(r.rssGrowth)}, fds ${r.start.fds} to ${Math.max(...r.samples.map((x) => x.fds))} at most`);
            }
    }
} catch (err) {
    if (!stopping) {
        if (current)
            printErrorSummary(current.program, current.rec.errors);
        console.error(`bench/load: FAIL: ${err.message ?? err}`);
        exitCode = 1;
    }
} finally {
    await cleanup();
}
process.exit(exitCode);
