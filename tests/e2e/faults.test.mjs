// Faults around nish-driver, each answered by a defined error within a deadline and with nothing
// left behind: the daemon killed with SIGKILL while a relayed call is in flight (the client's call
// ends, the relay exits, a new daemon takes over the same socket path); clients that send half a
// JSON-RPC line and vanish (the daemon serves on, its descriptors and threads come back to where
// they were); the audit log on a full disk (calls are answered, stderr says so, the log holds whole
// lines only, and records resume once there is room); and the X server killed under
// `nish-driver mcp` and `nish-driver daemon` on the linux backend (clean errors or a clean exit, no
// spinning).
//
// The full-disk cases mount a 16 KiB tmpfs inside a user and mount namespace (`unshare -Urm`) and
// read the log through /proc/PID/root; where that is not allowed they are skipped (the /dev/full
// case runs everywhere but as root without namespaces). The X server case starts its own desktop with scripts/test-desktop and is
// skipped where its programs (Xvfb, dbus-daemon, the AT-SPI bus, openbox, xprop) are missing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import {
    alive, cpuShare, fdCount, missingDesktopTools, probeUnshare, settleWithin, sleep, startDesktop, threadCount,
    until, withCleanup,
} from '../support/faults.mjs';
import { DRIVER_ARGS, DRIVER_BIN, Driver, driverEnv, startDriver, textOf } from './helpers.mjs';

const MOCK_DAEMON_ARGS = ['daemon', '--backend', 'mock', '--consent', 'auto'];

// How long a fault may take to be answered. A hang is forever, so these only bound the failing
// case; they are wide for the AddressSanitizer build, which runs 3-5 times slower.
const FAULT_DEADLINE_MS = 5000;
const REAP_DEADLINE_MS = 6000; // the daemon reaps finished connections at least once a second

// `nish-driver daemon --backend mock` on `socket`, resolved once it says it listens.
async function startDaemon(c, socket, env = driverEnv('')) {
    if (!existsSync(DRIVER_BIN))
        throw new Error(`nish-driver not found at ${DRIVER_BIN}: build it or set NISH_DRIVER_BIN`);
    const child = c.child(spawn(DRIVER_BIN, [...MOCK_DAEMON_ARGS, '--socket', socket], {
        env, stdio: ['ignore', 'ignore', 'pipe'],
    }));
    child.stderrText = '';
    child.stderr.on('data', (d) => { child.stderrText += d; });
    await until(() => child.stderrText.includes('listening on') || child.exitCode !== null, 10000,
        () => `the daemon did not start: ${child.stderrText}`);
    if (child.exitCode !== null)
        throw new Error(`the daemon exited with ${child.exitCode}: ${child.stderrText}`);
    return child;
}

// An SDK client behind `nish-driver mcp --connect --socket SOCKET`, closed by the cleanup. `exited`
// resolves with the relay's { code, signal } when its process ends.
async function startRelay(c, socket, name) {
    const d = await startDriver(name, ['mcp', '--connect', '--socket', socket]);
    c.add(() => d.close());
    // The SDK keeps its child in `_process` (1.32); without it, the pid is watched instead.
    const proc = d.transport._process;
    d.relayPid = d.transport.pid;
    d.exited = proc
        ? new Promise((resolve) => {
            if (proc.exitCode !== null || proc.signalCode !== null)
                resolve({ code: proc.exitCode, signal: proc.signalCode });
            else
                proc.once('exit', (code, signal) => resolve({ code, signal }));
        })
        : until(() => !alive(d.relayPid), 60000, 'the relay did not exit').then(() => ({ code: null, signal: null }));
    return d;
}

// A Driver (helpers.mjs: ok, call, stderrText) whose server is `command args` in `env` rather than
// DRIVER_BIN itself; closed by the cleanup. `exited` resolves with the process's { code, signal }.
async function startWrapped(c, name, command, args, env) {
    const d = new Driver();
    c.add(() => d.close());
    const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk) => { d.stderrText += chunk; });
    d.transport = transport;
    d.client = new Client({ name, version: '0.0.1' });
    await d.client.connect(transport);
    d.pid = transport.pid;
    const proc = transport._process;
    d.exited = new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null)
            resolve({ code: proc.exitCode, signal: proc.signalCode });
        else
            proc.once('exit', (code, signal) => resolve({ code, signal }));
    });
    return d;
}

// A call that failed cleanly: a JSON-RPC error (the SDK rejects with an Error carrying a code or a
// message), or a tool result with isError.
function assertCleanFailure(outcome, what) {
    if (outcome.error) {
        assert.ok(outcome.error instanceof Error, `${what}: rejected with ${String(outcome.error)}`);
        assert.ok(outcome.error.message.length > 0, `${what}: an error without a message`);
        return;
    }
    assert.equal(outcome.value?.isError, true,
        `${what}: expected an error, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
}

// ---------------------------------------------------------------------------------------------
// The daemon killed with SIGKILL mid-call

test('daemon killed -9 with a relayed call in flight: the call ends, the relay exits, a new daemon takes the socket', (t) =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const socket = path.join(dir, 'daemon.sock');
        const daemon = await startDaemon(c, socket);
        const host = await startRelay(c, socket, 'fault-host');
        await host.ok('start_session', {});
        assert.ok((await host.ok('list_windows', {})).data.windows.length > 0);

        // Stopped, the daemon takes the request into its socket buffer and never answers: the call
        // is in flight for certain when SIGKILL lands.
        daemon.kill('SIGSTOP');
        const inFlight = host.call('get_window_state', { app: 'Chatter' });
        await sleep(250);
        daemon.kill('SIGKILL');
        await settleWithin(daemon.exited, FAULT_DEADLINE_MS, 'the killed daemon');

        const call = await settleWithin(inFlight, FAULT_DEADLINE_MS, 'the call in flight when the daemon died');
        t.diagnostic(`the call in flight ${describe(call)} after ${call.ms} ms`);
        assertCleanFailure(call, 'the call in flight');
        const relay = await settleWithin(host.exited, FAULT_DEADLINE_MS, 'the relay after its daemon died');
        assert.ok(!relay.error, 'the relay exit watch failed');
        assert.ok(!alive(host.relayPid), 'the relay process is still there');
        // A later call on the dead relay fails at once instead of waiting forever.
        const after = await settleWithin(host.call('list_windows', {}), FAULT_DEADLINE_MS, 'a call after the relay exited');
        assertCleanFailure(after, 'a call after the relay exited');

        // The socket file the killed daemon left does not block the next one.
        assert.ok(existsSync(socket), 'expected the killed daemon to leave its socket file (SIGKILL runs no cleanup)');
        const second = await startDaemon(c, socket);
        const next = await startRelay(c, socket, 'fault-host-2');
        await next.ok('start_session', {});
        assert.ok((await next.ok('list_windows', {})).data.windows.length > 0);
        const meta = spawnSync(DRIVER_BIN, ['metadata', '--socket', socket], { encoding: 'utf8', timeout: 10000 });
        assert.equal(meta.status, 0, meta.stderr);
        assert.equal(JSON.parse(meta.stdout).pid, second.pid, 'the new daemon answers at the old path');
    }));

test('daemon killed -9 while busy with a burst of calls: every pending call ends within the deadline', (t) =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const socket = path.join(dir, 'daemon.sock');
        const daemon = await startDaemon(c, socket);
        const host = await startRelay(c, socket, 'fault-burst');
        await host.ok('start_session', {});
        // Full reads of the 4,200-element Chatter window, queued behind one another in the daemon;
        // the daemon dies as the first answer arrives, with the others running or queued.
        const calls = Array.from({ length: 24 }, () => host.call('get_window_state', { app: 'Chatter' }));
        await Promise.race(calls.map((p) => p.catch(() => {})));
        daemon.kill('SIGKILL');
        const outcomes = await settleWithin(Promise.allSettled(calls), FAULT_DEADLINE_MS, 'the burst of calls');
        const results = outcomes.value;
        const failed = results.filter((r) => r.status === 'rejected' || r.value.isError);
        const answered = results.filter((r) => r.status === 'fulfilled' && !r.value.isError);
        assert.equal(failed.length + answered.length, calls.length);
        t.diagnostic(`${answered.length} reads answered before the kill, ${failed.length} failed with it`);
        assert.ok(answered.length >= 1, 'the first read was answered before the kill');
        assert.ok(failed.length >= 1, 'every read was answered before the kill landed: none was in flight');
        for (const r of failed)
            assertCleanFailure(r.status === 'rejected' ? { error: r.reason } : { value: r.value }, 'a pending read');
        await settleWithin(host.exited, FAULT_DEADLINE_MS, 'the relay after its daemon died');
        assert.ok(!alive(host.relayPid), 'the relay process is still there');
    }));

// docs/daemon.md gives the relay no words for this; a host that started `mcp --connect` must be
// able to tell "the daemon went away" from a clean end of its own input, in its logs and by the
// exit status.
test('daemon killed -9 mid-call: the relay says on stderr that the daemon went away and exits non-zero', () =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const socket = path.join(dir, 'daemon.sock');
        const daemon = await startDaemon(c, socket);
        const host = await startRelay(c, socket, 'fault-message');
        await host.ok('start_session', {});
        daemon.kill('SIGSTOP');
        const inFlight = host.call('list_windows', {});
        await sleep(250);
        daemon.kill('SIGKILL');
        await settleWithin(inFlight, FAULT_DEADLINE_MS, 'the call in flight');
        const relay = await settleWithin(host.exited, FAULT_DEADLINE_MS, 'the relay after its daemon died');
        await sleep(50); // the last stderr bytes
        assert.match(host.stderrText, /daemon/i,
            `the relay exited (${JSON.stringify(relay.value)}) without a word on stderr: ${JSON.stringify(host.stderrText)}`);
        assert.notEqual(relay.value.code, 0,
            `the relay exited 0 although the daemon died with a call in flight; stderr: ${JSON.stringify(host.stderrText)}`);
    }));

// ---------------------------------------------------------------------------------------------
// Half a JSON-RPC line, then gone

test('clients that send half a JSON-RPC line and vanish: the daemon serves on, no descriptor or thread is kept', () =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const socket = path.join(dir, 'daemon.sock');
        const daemon = await startDaemon(c, socket);
        // A first client warms the daemon (its backend and engine) and goes; the baseline is what
        // the idle daemon holds then.
        const warm = await startRelay(c, socket, 'fault-warm');
        await warm.ok('start_session', {});
        await warm.ok('list_windows', {});
        await warm.close();
        await sleep(1200);
        const baseFds = fdCount(daemon.pid);
        const baseThreads = threadCount(daemon.pid);

        const half = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-1';
        const rawClient = (ending) => new Promise((resolve, reject) => {
            const s = net.createConnection(socket);
            s.on('error', () => resolve()); // a reset from the daemon's side is fine too
            s.on('connect', () => {
                s.write(half, () => {
                    if (ending === 'destroy')
                        s.destroy();
                    else
                        s.end();
                    resolve();
                });
            });
            s.setTimeout(FAULT_DEADLINE_MS, () => { s.destroy(); reject(new Error('raw client: no connect')); });
        });
        for (let i = 0; i < 12; i++)
            for (const ending of ['end', 'destroy'])
                await rawClient(ending);

        // One that stays half-sent while another host is served: reading it holds no lock.
        const lingering = net.createConnection(socket);
        c.add(() => lingering.destroy());
        lingering.on('error', () => {});
        await new Promise((r) => lingering.on('connect', r));
        lingering.write(half);
        // The daemon holds the lingering one: the count below is able to see a kept connection.
        await until(() => fdCount(daemon.pid) > baseFds, FAULT_DEADLINE_MS,
            () => `the daemon did not take the lingering connection (${fdCount(daemon.pid)} descriptors)`);

        const next = await startRelay(c, socket, 'fault-next');
        await next.ok('start_session', {});
        assert.ok((await next.ok('list_windows', {})).data.windows.length > 0);
        await next.close();
        lingering.destroy();

        await until(() => fdCount(daemon.pid) === baseFds && threadCount(daemon.pid) === baseThreads, REAP_DEADLINE_MS,
            () => `the daemon holds ${fdCount(daemon.pid)} descriptors and ${threadCount(daemon.pid)} threads, ` +
                `${baseFds} and ${baseThreads} before the half-line clients`);
        assert.ok(alive(daemon.pid), 'the daemon died');
        assert.equal(daemon.exitCode, null);
    }));

// ---------------------------------------------------------------------------------------------
// The audit log on a full disk

const noUnshare = probeUnshare();

// The driver on stdio inside a namespace of its own, with a 16 KiB tmpfs on `mountDir` of which
// `fill` bytes are taken by a file named "filler". The log is reached from here through
// /proc/PID/root while the driver runs.
async function startDriverOnTinyDisk(c, mountDir, fill) {
    const log = path.join(mountDir, 'audit.jsonl');
    const script = 'mount -t tmpfs -o size=16k nish-faults "$FAULT_DIR" || exit 97\n' +
        'head -c "$FAULT_FILL" /dev/zero > "$FAULT_DIR/filler" 2>/dev/null\n' +
        'exec "$@"';
    const d = await startWrapped(c, 'fault-audit', 'unshare', ['-Urm', 'sh', '-c', script, 'sh', DRIVER_BIN, ...DRIVER_ARGS],
        { ...driverEnv(log), FAULT_DIR: mountDir, FAULT_FILL: String(fill) });
    d.auditLog = log;
    // sh exec'd the driver, so the transport's pid is the driver's; its mounts are seen from here
    // through /proc/PID/root.
    d.inside = (p) => `/proc/${d.pid}/root${p}`;
    return d;
}

// Every line of a log's text: whole JSON objects, each ended by a newline.
function assertWholeLines(text, what) {
    if (text.length === 0)
        return [];
    const lines = text.split('\n');
    const tail = lines.pop();
    assert.equal(tail, '', `${what} ends in a partial line (no newline): ${JSON.stringify(tail.slice(-200))}`);
    return lines.map((line, i) => {
        let parsed;
        assert.doesNotThrow(() => { parsed = JSON.parse(line); }, `${what}: line ${i + 1} is not JSON: ${JSON.stringify(line.slice(0, 200))}`);
        assert.equal(typeof parsed.event, 'string', `${what}: line ${i + 1} has no event`);
        return parsed;
    });
}

test('audit log on a full disk: calls are answered, stderr says so once, the log keeps only whole lines',
    { skip: noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const mountDir = path.join(dir, 'state');
        mkdirSync(mountDir);
        // 8 KiB of the 16 are taken: the log fills after some fifty lines.
        const d = await startDriverOnTinyDisk(c, mountDir, 8192);
        try {
            await d.ok('start_session', {});
            for (let i = 0; i < 150; i++)
                assert.ok((await d.ok('list_windows', {})).data.windows.length > 0, `call ${i}`);
            const health = await d.call('health_report', {});
            assert.equal(health.isError, false, textOf(health));

            const warnings = d.stderrText.split('\n').filter((l) => l.includes('audit log'));
            assert.equal(warnings.length, 1, `expected one warning about the audit log, stderr: ${d.stderrText}`);
            assert.ok(warnings[0].includes(d.auditLog), `the warning names the log: ${warnings[0]}`);
            assert.match(warnings[0], /No space left on device/);

            const text = readFileSync(d.inside(d.auditLog), 'utf8');
            assert.ok(text.length > 1000, `the log took ${text.length} bytes before the disk filled`);
            const records = assertWholeLines(text, 'the audit log on a full disk');
            assert.ok(records.length > 10);
        } catch (err) {
            err.message += `\n--- driver stderr ---\n${d.stderrText}`;
            throw err;
        }
    }));

test('audit log after the disk frees up again: records resume and every line is whole',
    { skip: noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const dir = c.dir('nish-faults-');
        const mountDir = path.join(dir, 'state');
        mkdirSync(mountDir);
        const d = await startDriverOnTinyDisk(c, mountDir, 8192);
        await d.ok('start_session', {});
        for (let i = 0; i < 150; i++)
            await d.ok('list_windows', {});
        const full = readFileSync(d.inside(d.auditLog), 'utf8');
        // The person makes room; the driver reopens the log at its next record (audit.cpp).
        unlinkSync(d.inside(path.join(mountDir, 'filler')));
        for (let i = 0; i < 5; i++)
            await d.ok('list_windows', {});
        const text = readFileSync(d.inside(d.auditLog), 'utf8');
        assert.ok(text.length > full.length, 'no record was written once there was room again');
        const records = assertWholeLines(text, 'the audit log after the disk freed up');
        assert.equal(records.at(-1).tool, 'list_windows');
        assert.equal(records.at(-1).event, 'tool_call');
    }));

// /dev/full, a file whose every write fails with ENOSPC. The driver narrows the mode of the file its
// log names to 0600 (audit.cpp), and run as root it would narrow /dev/full itself; so as root the
// device is bind-mounted read-only onto a file of the test's own inside a namespace (writes still
// fail with ENOSPC, a chmod fails with EROFS). Elsewhere /dev/full is used directly, where a chmod by
// this user fails.
function devFullPlan() {
    if (process.getuid() !== 0)
        return { skip: false, namespace: false };
    if (!noUnshare)
        return { skip: false, namespace: true };
    return { skip: `${noUnshare}; and as root the driver would narrow /dev/full's own mode`, namespace: false };
}
const devFull = devFullPlan();

test('audit log on /dev/full: every call is answered and stderr names the log once', { skip: devFull.skip }, () =>
    withCleanup(async (c) => {
        let d;
        if (devFull.namespace) {
            const dir = c.dir('nish-faults-');
            const log = path.join(dir, 'full');
            writeFileSync(log, '');
            const script = 'mount --bind /dev/full "$FAULT_LOG" && mount -o remount,bind,ro "$FAULT_LOG" || exit 97\n' +
                'exec "$@"';
            d = await startWrapped(c, 'fault-devfull', 'unshare', ['-Urm', 'sh', '-c', script, 'sh', DRIVER_BIN, ...DRIVER_ARGS],
                { ...driverEnv(log), FAULT_LOG: log });
            d.auditLog = log;
        } else {
            d = new Driver();
            c.add(() => d.close());
            d.auditLog = '/dev/full'; // the log start() hands the driver
            await d.start('fault-devfull');
        }
        await d.ok('start_session', {});
        for (let i = 0; i < 20; i++)
            assert.ok((await d.ok('list_windows', {})).data.windows.length > 0);
        const warnings = d.stderrText.split('\n').filter((l) => l.includes('audit log'));
        assert.equal(warnings.length, 1, `stderr: ${d.stderrText}`);
        assert.ok(warnings[0].includes(d.auditLog), warnings[0]);
        assert.match(warnings[0], /No space left on device/);
    }));

// ---------------------------------------------------------------------------------------------
// The X server killed

const noDesktop = missingDesktopTools();

// One call's outcome after the X server died, for the diagnostics.
function describe(outcome) {
    return outcome.error ? `rejected: ${outcome.error.message}` : `answered: ${textOf(outcome.value).split('\n')[0]}`;
}

// After the X server died, each server must answer `list_windows` and `press_key` with a tool error
// (the error envelope of contract §2.1) and health_report with "not ready", or have exited with a
// word on stderr; either way within the deadline and without burning a core, neither in the 2 s
// after the kill nor in the second after those calls. `servers`: [what, Driver-like with pid and
// exited].
async function checkAfterXDied(t, servers) {
    const spinning = async (ms, when) => {
        const shares = await Promise.all(servers.map(([, d]) => (alive(d.pid) ? cpuShare(d.pid, ms) : 0)));
        servers.forEach(([what, d], i) => {
            t.diagnostic(`${what}: ${alive(d.pid) ? 'runs' : 'exited'}, ${Math.round(shares[i] * 100)}% of a core ${when}`);
            assert.ok(shares[i] < 0.3, `${what} burns ${Math.round(shares[i] * 100)}% of a core ${when}`);
        });
    };
    await spinning(2000, 'over 2 s after the X server died');
    for (const [what, d] of servers) {
        for (const [name, args] of [['list_windows', {}], ['press_key', { key: 'shift' }], ['health_report', {}]]) {
            const after = await settleWithin(d.call(name, args), FAULT_DEADLINE_MS, `${what}: ${name} after the X server died`);
            t.diagnostic(`${what}: ${name} ${describe(after)} (${after.ms} ms)`);
            if (after.error) {
                // The server went away: it must have exited.
                const status = await settleWithin(d.exited, FAULT_DEADLINE_MS, `${what}: its exit`);
                t.diagnostic(`${what}: exited ${JSON.stringify(status.value)}`);
                assert.ok(!alive(d.pid), `${what} rejected ${name} but still runs`);
                continue;
            }
            const result = after.value;
            if (name === 'health_report') {
                assert.equal(result.isError, false, textOf(result));
                assert.match(textOf(result), /not ready/, textOf(result));
                continue;
            }
            assert.equal(result.isError, true, `${what}: ${name} succeeded without an X server: ${textOf(result)}`);
            const sc = result.structuredContent;
            assert.equal(sc?.ok, false, JSON.stringify(sc));
            assert.match(sc.error.code, /^[a-z_]+$/);
            assert.ok(sc.error.message.length > 0);
        }
    }
    await spinning(1000, 'after answering without its X server');
}

test('X server killed under nish-driver (mcp and daemon, linux backend): clean errors or exit, no spinning', { skip: noDesktop ?? false }, (t) =>
    withCleanup(async (c) => {
        const desktop = await startDesktop(c);
        const env = { ...driverEnv(''), ...desktop.env };
        const dir = c.dir('nish-faults-');
        const socket = path.join(dir, 'daemon.sock');

        // The stdio driver holds the takeover (its indicator is an X window); the daemon's host works
        // headless on the same display.
        const d = await startWrapped(c, 'fault-x', DRIVER_BIN, ['mcp', '--backend', 'linux', '--consent', 'auto'], env);
        const daemon = c.child(spawn(DRIVER_BIN, ['daemon', '--backend', 'linux', '--consent', 'auto', '--socket', socket],
            { env, stdio: ['ignore', 'ignore', 'pipe'] }));
        daemon.stderrText = '';
        daemon.stderr.on('data', (chunk) => { daemon.stderrText += chunk; });
        await until(() => daemon.stderrText.includes('listening on') || daemon.exitCode !== null, 10000,
            () => `the linux daemon did not start: ${daemon.stderrText}`);
        assert.equal(daemon.exitCode, null, daemon.stderrText);
        const host = await startRelay(c, socket, 'fault-x-host');
        try {
            const session = await d.call('start_session', { apps: ['gtk3-widget-factory'], input: 'takeover' });
            assert.equal(session.isError, false, textOf(session));
            const hostSession = await host.call('start_session', { apps: ['gtk3-widget-factory'] });
            assert.equal(hostSession.isError, false, textOf(hostSession));
            for (const server of [d, host]) {
                const before = await server.call('list_windows', {});
                assert.equal(before.isError, false, textOf(before));
            }

            process.kill(desktop.xPid, 'SIGKILL');
            await until(() => !alive(desktop.xPid), FAULT_DEADLINE_MS, 'Xvfb did not die');

            // The relay only forwards; the daemon is the process that must not spin or stay behind.
            host.pid = daemon.pid;
            host.exited = daemon.exited.then(() => ({ code: daemon.exitCode, signal: daemon.signalCode }));
            await checkAfterXDied(t, [['nish-driver mcp', d], ['nish-driver daemon', host]]);
        } catch (err) {
            err.message += `\n--- mcp stderr ---\n${d.stderrText}\n--- daemon stderr ---\n${daemon.stderrText}`;
            throw err;
        }
    }));
