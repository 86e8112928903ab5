// Faults around shuttle, each answered by a defined error within a deadline and with nothing left
// behind: the daemon killed with SIGKILL while a call is in flight (through `shuttle mcp` and the
// CLI: a prompt error naming the daemon, and a daemon started again on the same socket serves);
// clients that send half a wire frame and vanish (the daemon serves on, its descriptors and threads
// come back to where they were); `shuttle desk shot --out FILE` where FILE cannot be written (a
// directory, a missing directory, a read-only place, a full disk, /dev/full: an error naming FILE,
// no partial or temporary file, an old FILE left as it was); desk_shot's `path`, written by the
// daemon, on a full disk; and the X server killed under `shuttle daemon --backend linux`.
//
// The --out cases answer the CLI from a stand-in daemon (helpers.mjs FakeDaemon) that sends a
// picture, since the mock desk has no screen. The full-disk and read-only cases mount a tmpfs inside
// a user and mount namespace (`unshare -Urm`), run the program there and list the directory from
// inside too; where that is not allowed they are skipped. The desktop cases start a private desktop
// with scripts/test-desktop and are skipped where its programs are missing.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
    accessSync, chmodSync, constants as fsConstants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync,
    statSync, unlinkSync, writeFileSync,
} from 'node:fs';
import net from 'node:net';
import path from 'node:path';

import {
    Cleanup as BaseCleanup, alive, cpuShare, fdCount, missingDesktopTools, probeUnshare, settleWithin, sleep,
    startDesktop, threadCount, until, withCleanup as withBaseCleanup,
} from '../support/faults.mjs';
import { FakeDaemon, SHUTTLE_BIN, Sandbox, textOf } from './helpers.mjs';

// How long a fault may take to be answered. A hang is forever, so these only bound the failing
// case; they are wide for the AddressSanitizer build, which runs 3-5 times slower.
const FAULT_DEADLINE_MS = 5000;
const REAP_DEADLINE_MS = 6000;

// The desk's cleanup also closes a sandbox (helpers.mjs) a test made.
class Cleanup extends BaseCleanup {
    sandbox() {
        const box = new Sandbox();
        this.add(() => box.close());
        return box;
    }
}
const withCleanup = (fn) => withBaseCleanup(fn, () => new Cleanup());

// Runs `command args` to its end: { code, signal, stdout, stderr, ms }; killed after `ms`.
function run(command, args, { env, ms = 20000 } = {}) {
    return new Promise((resolve) => {
        const started = Date.now();
        const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => { stdout += d; });
        child.stderr.on('data', (d) => { stderr += d; });
        const timer = setTimeout(() => child.kill('SIGKILL'), ms);
        child.on('exit', (code, signal) => {
            clearTimeout(timer);
            resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
        });
    });
}

// ---------------------------------------------------------------------------------------------
// The daemon killed with SIGKILL mid-call

// A desk_wait that would run 5 s unless the daemon answers first.
const WAIT_MS = 5000;
// Well short of WAIT_MS: a call answered later was not ended by the fault but ran out on its own.
const KILL_ANSWER_MS = 3000;

test('daemon killed -9 with desk_wait in flight through shuttle mcp: a prompt tool error, then a restarted daemon serves', (t) =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const daemon = await box.startDaemon();
        const mcp = await box.startMcp();
        const windows = JSON.parse(textOf(await mcp.call('desk_windows')));
        assert.ok(windows.windows.length > 0);
        const idleFds = fdCount(daemon.pid);

        const inFlight = mcp.call('desk_wait', { since: windows, timeout_ms: WAIT_MS });
        // The call is in flight once the daemon holds its connection.
        await until(() => fdCount(daemon.pid) > idleFds, FAULT_DEADLINE_MS, 'the daemon never took the desk_wait call');
        await sleep(100);
        const exited = new Promise((resolve) => daemon.once('exit', resolve));
        daemon.kill('SIGKILL');
        await exited;

        const call = await settleWithin(inFlight, KILL_ANSWER_MS, 'desk_wait in flight when the daemon died');
        t.diagnostic(`desk_wait ${call.error ? `rejected: ${call.error.message}` : `answered: ${textOf(call.value)}`} after ${call.ms} ms`);
        assert.ok(!call.error, `a JSON-RPC error where docs/mcp-front.md defines a tool error: ${call.error?.message}`);
        assert.equal(call.value.isError, true, textOf(call.value));
        // docs/mcp-front.md: "desk_VERB did not finish: WHAT (daemon at PATH)".
        assert.match(textOf(call.value), /^desk_wait did not finish: .+ \(daemon at .+\)$/);
        assert.ok(textOf(call.value).includes(box.socket), textOf(call.value));

        // With no daemon, the front answers at once and names the endpoint.
        const none = await settleWithin(mcp.call('desk_windows'), FAULT_DEADLINE_MS, 'desk_windows with no daemon');
        assert.equal(none.value?.isError, true, JSON.stringify(none));
        assert.match(textOf(none.value), /no shuttle daemon answers at/);
        assert.ok(textOf(none.value).includes(box.socket), textOf(none.value));

        // The killed daemon's socket file does not block the next daemon, which the same front finds.
        assert.ok(existsSync(box.socket), 'expected the killed daemon to leave its socket file (SIGKILL runs no cleanup)');
        const second = await box.startDaemon();
        const again = await settleWithin(mcp.call('desk_windows'), FAULT_DEADLINE_MS, 'desk_windows on the new daemon');
        assert.equal(again.value?.isError, false, JSON.stringify(again));
        assert.deepEqual(JSON.parse(textOf(again.value)).windows.map((w) => w.id), windows.windows.map((w) => w.id));
        assert.ok(alive(second.pid));
        const cli = await box.run(['desk', 'windows']);
        assert.equal(cli.code, 0, cli.stderr);
    }));

test('daemon killed -9 under `shuttle desk wait`: the CLI exits non-zero with a message at once', () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const daemon = await box.startDaemon();
        const windows = (await box.run(['desk', 'windows'])).stdout;
        const idleFds = fdCount(daemon.pid);
        const cli = box.run(['desk', 'wait', JSON.stringify({ since: JSON.parse(windows), timeout_ms: WAIT_MS })]);
        await until(() => fdCount(daemon.pid) > idleFds, FAULT_DEADLINE_MS, 'the daemon never took the CLI call');
        await sleep(100);
        const killedAt = Date.now();
        daemon.kill('SIGKILL');
        const result = await settleWithin(cli, KILL_ANSWER_MS + 1000, 'the CLI after its daemon died');
        const { code, stderr } = result.value;
        assert.ok(Date.now() - killedAt < KILL_ANSWER_MS, `the CLI took ${Date.now() - killedAt} ms`);
        assert.notEqual(code, 0, `the CLI exited 0: ${stderr}`);
        assert.match(stderr, /^shuttle: .+/m);
    }));

// ---------------------------------------------------------------------------------------------
// Half a wire frame, then gone

test('clients that send half a wire frame and vanish: the daemon serves on, no descriptor or thread is kept', () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const daemon = await box.startDaemon();
        const mcp = await box.startMcp();
        // A first call warms the daemon; the baseline is what the idle daemon holds then.
        assert.equal((await mcp.call('desk_windows')).isError, false);
        await sleep(300);
        const baseFds = fdCount(daemon.pid);
        const baseThreads = threadCount(daemon.pid);

        const payload = Buffer.from(JSON.stringify({ agent_id: '', tool: 'desk_windows', args: {} }));
        const header = Buffer.alloc(4);
        header.writeUInt32BE(payload.length, 0);
        const halves = [
            header.subarray(0, 2), // half a header
            header, // a header and nothing after it
            Buffer.concat([header, payload.subarray(0, payload.length >> 1)]), // half a payload
        ];
        const rawClient = (bytes, ending) => new Promise((resolve, reject) => {
            const s = net.createConnection(box.socket);
            s.on('error', () => resolve());
            s.on('connect', () => s.write(bytes, () => {
                if (ending === 'destroy')
                    s.destroy();
                else
                    s.end();
                resolve();
            }));
            s.setTimeout(FAULT_DEADLINE_MS, () => { s.destroy(); reject(new Error('raw client: no connect')); });
        });
        for (let i = 0; i < 6; i++)
            for (const bytes of halves)
                for (const ending of ['end', 'destroy'])
                    await rawClient(bytes, ending);

        // One that stays half-sent while other calls are served.
        const lingering = net.createConnection(box.socket);
        c.add(() => lingering.destroy());
        lingering.on('error', () => {});
        await new Promise((r) => lingering.on('connect', r));
        lingering.write(halves[2]);
        await until(() => fdCount(daemon.pid) > baseFds, FAULT_DEADLINE_MS,
            () => `the daemon did not take the lingering connection (${fdCount(daemon.pid)} descriptors)`);
        const served = await settleWithin(mcp.call('desk_windows'), FAULT_DEADLINE_MS, 'desk_windows beside a half frame');
        assert.equal(served.value?.isError, false, JSON.stringify(served));
        const cli = await box.run(['desk', 'windows']);
        assert.equal(cli.code, 0, cli.stderr);
        lingering.destroy();

        await until(() => fdCount(daemon.pid) === baseFds && threadCount(daemon.pid) === baseThreads, REAP_DEADLINE_MS,
            () => `the daemon holds ${fdCount(daemon.pid)} descriptors and ${threadCount(daemon.pid)} threads, ` +
                `${baseFds} and ${baseThreads} before the half-frame clients`);
        assert.ok(alive(daemon.pid), 'the daemon died');
    }));

// ---------------------------------------------------------------------------------------------
// shot --out where the file cannot be written

// A picture as the daemon sends it for desk_shot: a PNG signature and `size` bytes in all.
function fakeShot(size) {
    const bytes = Buffer.alloc(size);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(bytes);
    for (let i = 8; i < size; i++)
        bytes[i] = (i * 7919) & 0xff;
    return {
        bytes,
        reply: { text: JSON.stringify({ width: 64, height: 64 }), is_error: false, image_b64: bytes.toString('base64') },
    };
}

// A stand-in daemon on the sandbox's socket that answers every call with `shot`.
async function fakeDaemon(c, box, shot) {
    const fake = new FakeDaemon(box.socket);
    c.add(() => fake.close());
    fake.reply = shot.reply;
    await fake.listening;
    return fake;
}

// Names and sizes in a directory, as a sorted list of "name size".
function listing(dir) {
    return readdirSync(dir).sort().map((name) => `${name} ${statSync(path.join(dir, name)).size}`);
}

// A failed --out: non-zero, one line on stderr naming the file.
function assertShotRefused(result, file, what) {
    assert.notEqual(result.code, 0, `${what}: exit 0; stdout ${result.stdout} stderr ${result.stderr}`);
    assert.equal(result.signal, null, `${what}: killed by ${result.signal} (a hang?)`);
    assert.ok(result.stderr.includes(file), `${what}: stderr does not name ${file}: ${JSON.stringify(result.stderr)}`);
}

test('shot --out naming a directory, a missing directory or a path under a file: an error naming it, nothing left', () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const shot = fakeShot(64 * 1024);
        await fakeDaemon(c, box, shot);
        const out = path.join(box.dir, 'out');
        mkdirSync(path.join(out, 'pictures'), { recursive: true });
        writeFileSync(path.join(out, 'notes.txt'), 'notes');
        const before = listing(out);
        for (const [file, what] of [
            [path.join(out, 'pictures'), 'a directory'],
            [path.join(out, 'pictures') + '/', 'a directory, with a slash'],
            [path.join(out, 'missing', 'shot.png'), 'a file in a missing directory'],
            [path.join(out, 'notes.txt', 'shot.png'), 'a file under a regular file'],
        ]) {
            const result = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', file], { env: box.env() });
            assertShotRefused(result, file.replace(/\/$/, ''), what);
            assert.deepEqual(listing(out), before, `${what}: the directory changed`);
            assert.deepEqual(readdirSync(path.join(out, 'pictures')), [], `${what}: something was left in the directory`);
            assert.equal(readFileSync(path.join(out, 'notes.txt'), 'utf8'), 'notes');
        }
        // The same daemon's picture is written where it can be: the refusals were the path's.
        const good = path.join(out, 'shot.png');
        const ok = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', good], { env: box.env() });
        assert.equal(ok.code, 0, ok.stderr);
        assert.ok(readFileSync(good).equals(shot.bytes), 'the written picture differs from the daemon\'s');
    }));

test('shot --out in a directory this user may not write: an error naming the file, nothing left',
    { skip: process.getuid() === 0 ? 'root writes anywhere; the read-only tmpfs case covers it' : false }, () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        await fakeDaemon(c, box, fakeShot(64 * 1024));
        const out = path.join(box.dir, 'locked');
        mkdirSync(out);
        chmodSync(out, 0o555);
        const file = path.join(out, 'shot.png');
        const result = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', file], { env: box.env() });
        assertShotRefused(result, file, 'a read-only directory');
        assert.deepEqual(readdirSync(out), []);
    }));

const noUnshare = probeUnshare();

// /dev/full, a file whose every write fails with ENOSPC. A program that replaces its --out file by a
// rename (a temporary beside it, then rename) would, run as root, replace /dev/full itself; so the
// device is bind-mounted read-only onto a file of the test's own inside a namespace (writes still
// fail with ENOSPC; a rename onto a mount point or a chmod fails), or, without namespaces, used
// directly only where this user cannot write /dev.
function devFullPlan() {
    if (!noUnshare)
        return { skip: false, namespace: true };
    try {
        accessSync('/dev', fsConstants.W_OK);
    } catch {
        return { skip: false, namespace: false };
    }
    return { skip: `${noUnshare}; and /dev is writable here, so a faulty --out could replace /dev/full`, namespace: false };
}
const devFull = devFullPlan();

test('shot --out to a device that is always full (/dev/full): an error naming it, for a large and a small picture',
    { skip: devFull.skip }, () =>
    withCleanup(async (c) => {
        for (const size of [64 * 1024, 600]) {
            const box = c.sandbox();
            await fakeDaemon(c, box, fakeShot(size));
            const dir = path.join(box.dir, 'out');
            mkdirSync(dir);
            let result;
            let file;
            if (devFull.namespace) {
                file = path.join(dir, 'full');
                writeFileSync(file, '');
                const script = 'mount --bind /dev/full "$0" && mount -o remount,bind,ro "$0" || exit 97\nexec "$@"';
                result = await run('unshare', ['-Urm', 'sh', '-c', script, file, SHUTTLE_BIN, 'desk', 'shot', '--out', file],
                    { env: box.env() });
                assert.notEqual(result.code, 97, `the bind mount failed: ${result.stderr}`);
                assert.deepEqual(listing(dir), ['full 0'], 'the placeholder changed or a temporary file was left');
            } else {
                file = '/dev/full';
                result = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', file], { env: box.env() });
            }
            assertShotRefused(result, file, `a ${size}-byte picture`);
        }
    }));

// `--out` onto a named pipe (as `--out /dev/stdout` is one): the picture goes down the pipe, and the
// pipe stays a pipe. Written through a temporary file and a rename, the pipe would be replaced by a
// regular file, and a reader on it would get nothing.
test('shot --out onto a named pipe: the picture goes down the pipe, which stays a pipe', () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const shot = fakeShot(64 * 1024);
        await fakeDaemon(c, box, shot);
        const dir = path.join(box.dir, 'out');
        mkdirSync(dir);
        const fifo = path.join(dir, 'pipe');
        const made = spawnSync('mkfifo', [fifo]);
        assert.equal(made.status, 0, 'mkfifo failed');
        const received = path.join(box.dir, 'received.png');
        // A reader that copies what comes down the pipe; killed by the cleanup if nothing ever does.
        const reader = c.child(spawn('sh', ['-c', 'exec cat "$0" > "$1"', fifo, received], { stdio: 'ignore' }));
        const result = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', fifo], { env: box.env() });
        assert.equal(result.code, 0, result.stderr);
        assert.ok(lstatSync(fifo).isFIFO(), `the pipe was replaced by a ${lstatSync(fifo).isFile() ? 'regular file' : 'something else'}`);
        await settleWithin(reader.exited, FAULT_DEADLINE_MS, 'the pipe\'s reader (nothing was written to the pipe)');
        assert.ok(readFileSync(received).equals(shot.bytes), 'the pipe carried something other than the picture');
        assert.deepEqual(readdirSync(dir), ['pipe'], 'a temporary file was left beside the pipe');
    }));

// Lists a directory from inside the namespace: [{ name, size, head }] with `head` the first 32
// bytes in hex.
const LIST_JS = `
const fs = require('fs'); const path = require('path'); const dir = process.env.FAULT_DIR;
const out = fs.readdirSync(dir).sort().map((name) => {
    const p = path.join(dir, name); const st = fs.statSync(p);
    return { name, size: st.size, dir: st.isDirectory(),
             head: st.isFile() ? fs.readFileSync(p).subarray(0, 32).toString('hex') : '' };
});
console.log('@@listing ' + JSON.stringify(out));`;

// `shuttle desk shot --out FAULT_DIR/<name>` inside a namespace with a 16 KiB tmpfs on FAULT_DIR:
// `fill` bytes of it taken by "filler", `old` written first as shot.png, read-only when `readonly`.
// Answers the CLI's { code, stderr, stdout } and the directory as the CLI left it.
async function shotOnTinyDisk(box, dir, { fill = 0, old = null, readonly = false, name = 'shot.png' }) {
    const script = [
        'mount -t tmpfs -o size=16k shuttle-faults "$FAULT_DIR" || exit 97',
        old === null ? ':' : 'printf %s "$FAULT_OLD" > "$FAULT_DIR/shot.png" || exit 96',
        fill ? 'head -c "$FAULT_FILL" /dev/zero > "$FAULT_DIR/filler" 2>/dev/null' : ':',
        readonly ? 'mount -o remount,ro "$FAULT_DIR" || exit 98' : ':',
        '"$@"; rc=$?',
        'echo "@@rc=$rc"',
        '"$FAULT_NODE" -e "$FAULT_LIST"',
    ].join('\n');
    const file = path.join(dir, name);
    const env = {
        ...box.env(), FAULT_DIR: dir, FAULT_FILL: String(fill), FAULT_OLD: old ?? '', FAULT_NODE: process.execPath,
        FAULT_LIST: LIST_JS,
    };
    const r = await run('unshare', ['-Urm', 'sh', '-c', script, 'sh', SHUTTLE_BIN, 'desk', 'shot', '--out', file], { env });
    assert.ok(![96, 97, 98].includes(r.code), `the namespace could not be set up (${r.code}): ${r.stderr}`);
    const rc = /^@@rc=(\d+)$/m.exec(r.stdout);
    const list = /^@@listing (.*)$/m.exec(r.stdout);
    assert.ok(rc && list, `no result from the namespace: ${r.stdout} ${r.stderr}`);
    return {
        file,
        result: { code: Number(rc[1]), signal: null, stderr: r.stderr, stdout: r.stdout.slice(0, rc.index) },
        entries: JSON.parse(list[1]),
    };
}

test('shot --out on a full disk: an error naming the file, no partial or temporary file, an old file untouched',
    { skip: noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        const shot = fakeShot(64 * 1024);
        await fakeDaemon(c, box, shot);
        const dir = path.join(box.dir, 'disk');
        mkdirSync(dir);

        // 64 KiB into 16: the disk fills during the write.
        let r = await shotOnTinyDisk(box, dir, {});
        assertShotRefused(r.result, r.file, 'a picture larger than the disk');
        assert.deepEqual(r.entries, [], `left behind on the full disk: ${JSON.stringify(r.entries)}`);

        // A disk already full, then the same with a picture there from before.
        r = await shotOnTinyDisk(box, dir, { fill: 16384 });
        assertShotRefused(r.result, r.file, 'a disk already full');
        assert.deepEqual(r.entries.map((e) => e.name), ['filler'], `left behind on the full disk: ${JSON.stringify(r.entries)}`);

        r = await shotOnTinyDisk(box, dir, { old: 'the old picture', fill: 16384 });
        assertShotRefused(r.result, r.file, 'a full disk with an old picture');
        assert.deepEqual(r.entries.map((e) => e.name), ['filler', 'shot.png'], JSON.stringify(r.entries));
        const oldEntry = r.entries.find((e) => e.name === 'shot.png');
        assert.equal(oldEntry.size, 'the old picture'.length, `the old picture was cut: ${JSON.stringify(oldEntry)}`);
        assert.equal(oldEntry.head, Buffer.from('the old picture').toString('hex'), 'the old picture was overwritten');
    }));

test('shot --out on a small picture and a nearly full disk: an error naming the file, not a silent empty file',
    { skip: noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        await fakeDaemon(c, box, fakeShot(600));
        const dir = path.join(box.dir, 'disk');
        mkdirSync(dir);
        const r = await shotOnTinyDisk(box, dir, { fill: 16384 });
        assertShotRefused(r.result, r.file, 'a 600-byte picture on a full disk');
        assert.deepEqual(r.entries.map((e) => e.name), ['filler'], `left behind: ${JSON.stringify(r.entries)}`);
    }));

test('shot --out on a read-only filesystem: an error naming the file, nothing left', { skip: noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const box = c.sandbox();
        await fakeDaemon(c, box, fakeShot(64 * 1024));
        const dir = path.join(box.dir, 'disk');
        mkdirSync(dir);
        const r = await shotOnTinyDisk(box, dir, { readonly: true });
        assertShotRefused(r.result, r.file, 'a read-only filesystem');
        assert.deepEqual(r.entries, []);
    }));

// ---------------------------------------------------------------------------------------------
// On a real (virtual) desktop: desk_shot's path on a full disk, and the X server killed

const noDesktop = missingDesktopTools();

async function startDaemonOnTinyDisk(c, box, desktop, mountDir, size) {
    const script = `mount -t tmpfs -o size=${size} shuttle-faults "$FAULT_DIR" || exit 97\nexec "$@"`;
    const child = c.child(spawn('unshare', ['-Urm', 'sh', '-c', script, 'sh', SHUTTLE_BIN, 'daemon', '--backend', 'linux'],
        { env: { ...box.env(), ...desktop.env, FAULT_DIR: mountDir }, stdio: ['ignore', 'ignore', 'pipe'] }));
    child.stderrText = '';
    child.stderr.on('data', (d) => { child.stderrText += d; });
    await until(() => child.stderrText.includes('listening on') || child.exitCode !== null, 15000,
        () => `the daemon did not start: ${child.stderrText}`);
    assert.equal(child.exitCode, null, child.stderrText);
    child.inside = (p) => `/proc/${child.pid}/root${p}`;
    return child;
}

test('desk_shot path on a full disk, written by the daemon: an error naming the file, nothing left, an old file untouched',
    { skip: noDesktop ?? noUnshare ?? false }, () =>
    withCleanup(async (c) => {
        const desktop = await startDesktop(c);
        const box = c.sandbox();
        const mountDir = path.join(box.dir, 'disk');
        mkdirSync(mountDir);
        const size = 4 * 1024 * 1024;
        const daemon = await startDaemonOnTinyDisk(c, box, desktop, mountDir, size);
        const mcp = await box.startMcp();
        const names = () => readdirSync(daemon.inside(mountDir)).sort();
        const inside = (name) => daemon.inside(path.join(mountDir, name));

        const probe = await mcp.call('desk_shot', { path: path.join(mountDir, 'probe.png') });
        assert.equal(probe.isError, false, textOf(probe));
        assert.equal(readFileSync(inside('probe.png')).subarray(1, 4).toString(), 'PNG');
        unlinkSync(inside('probe.png'));

        // An old picture smaller than a new one (so cutting it does not make room for the new one),
        // then the rest of the disk filled.
        writeFileSync(inside('old.png'), 'the old picture');
        try {
            writeFileSync(inside('filler'), Buffer.alloc(size));
        } catch (err) {
            assert.equal(err.code, 'ENOSPC', err.message);
        }
        for (const name of ['new.png', 'old.png']) {
            const file = path.join(mountDir, name);
            const full = await settleWithin(mcp.call('desk_shot', { path: file }), FAULT_DEADLINE_MS, `desk_shot ${name} on a full disk`);
            assert.equal(full.value?.isError, true, `${name}: ${JSON.stringify(full).slice(0, 300)}`);
            assert.ok(textOf(full.value).includes(file), `the error does not name the file: ${textOf(full.value)}`);
            assert.deepEqual(names(), ['filler', 'old.png'], `${name}: a partial or temporary file was left behind`);
            assert.equal(readFileSync(inside('old.png'), 'utf8'), 'the old picture', `${name}: the old picture was cut or overwritten`);
        }

        // The mount point itself, a directory: refused, and nothing made inside it.
        const onDir = await mcp.call('desk_shot', { path: mountDir });
        assert.equal(onDir.isError, true, textOf(onDir));
        assert.ok(textOf(onDir).includes(mountDir), textOf(onDir));
        assert.deepEqual(names(), ['filler', 'old.png']);

        // Room again: the old picture is replaced by a whole new one.
        unlinkSync(inside('filler'));
        const after = await mcp.call('desk_shot', { path: path.join(mountDir, 'old.png') });
        assert.equal(after.isError, false, textOf(after));
        const image = after.content.find((b) => b.type === 'image');
        assert.ok(readFileSync(inside('old.png')).equals(Buffer.from(image.data, 'base64')),
            'the file differs from the picture the call answered');
        assert.deepEqual(names(), ['old.png']);
    }));

test('X server killed under shuttle daemon --backend linux: clean errors or exit, no spinning',
    { skip: noDesktop ?? false }, (t) =>
    withCleanup(async (c) => {
        const desktop = await startDesktop(c);
        const box = c.sandbox();
        const daemon = await box.startDaemon(desktop.env, 'linux');
        const mcp = await box.startMcp();
        const before = await mcp.call('desk_windows');
        assert.equal(before.isError, false, textOf(before));
        const shotFile = path.join(box.dir, 'before.png');
        const shot = await box.run(['desk', 'shot', '--out', shotFile]);
        assert.equal(shot.code, 0, shot.stderr);
        assert.equal(readFileSync(shotFile).subarray(1, 4).toString(), 'PNG');
        const mcpPid = mcp.client.transport?.pid ?? null;

        process.kill(desktop.xPid, 'SIGKILL');
        await until(() => !alive(desktop.xPid), FAULT_DEADLINE_MS, 'Xvfb did not die');

        const watched = [['shuttle daemon', daemon.pid], ...(mcpPid ? [['shuttle mcp', mcpPid]] : [])];
        const spinning = async (ms, when) => {
            const shares = await Promise.all(watched.map(([, pid]) => cpuShare(pid, ms)));
            watched.forEach(([what, pid], i) => {
                t.diagnostic(`${what}: ${alive(pid) ? 'runs' : 'exited'}, ${Math.round(shares[i] * 100)}% of a core ${when}`);
                assert.ok(shares[i] < 0.3, `${what} burns ${Math.round(shares[i] * 100)}% of a core ${when}`);
            });
        };
        await spinning(2000, 'over 2 s after the X server died');

        for (const [verb, args] of [['desk_windows', {}], ['desk_shot', {}], ['desk_key', { keys: 'shift' }]]) {
            const after = await settleWithin(mcp.call(verb, args), FAULT_DEADLINE_MS, `${verb} after the X server died`);
            t.diagnostic(`${verb}: ${after.error ? `rejected: ${after.error.message}` : `${after.value.isError ? 'error' : 'ok'}: ${textOf(after.value).slice(0, 200)}`} (${after.ms} ms)`);
            assert.ok(!after.error, `shuttle mcp answered ${verb} with a JSON-RPC error: ${after.error?.message}`);
            assert.equal(after.value.isError, true, `${verb} succeeded without an X server: ${textOf(after.value).slice(0, 200)}`);
            assert.ok(textOf(after.value).length > 0);
        }
        const cli = await run(SHUTTLE_BIN, ['desk', 'shot', '--out', path.join(box.dir, 'after.png')], { env: box.env(), ms: FAULT_DEADLINE_MS * 2 });
        assert.notEqual(cli.code, 0, cli.stdout);
        assert.equal(cli.signal, null, 'the CLI hung');
        assert.ok(!existsSync(path.join(box.dir, 'after.png')), 'a picture file was written without an X server');
        await spinning(1000, 'after answering without its X server');

        if (!alive(daemon.pid)) {
            // The daemon left: a new one on the same socket must start (here on the mock desk).
            t.diagnostic(`the daemon exited (${daemon.exitCode ?? daemon.signalCode})`);
            await box.startDaemon();
            const served = await mcp.call('desk_windows');
            assert.equal(served.isError, false, textOf(served));
        }
    }));
