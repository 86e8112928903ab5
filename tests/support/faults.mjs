// What the fault tests of both programs share (tests/e2e/faults.test.mjs, tests/e2e-shuttle/
// faults.test.mjs): deadlines on promises, polling, a process's fds, threads and CPU from /proc,
// cleanup of whatever a test started, whether tmpfs mounts in a namespace of our own are allowed,
// and a private virtual desktop (scripts/test-desktop). Node's own modules only, so both test
// directories import it as it is.

import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Resolves with `promise`'s outcome ({ value } or { error }) and how long it took, or rejects when
// it takes longer than `ms`.
export async function settleWithin(promise, ms, what) {
    const started = Date.now();
    let timer;
    const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (a hang)`)), ms);
    });
    try {
        const outcome = await Promise.race([
            promise.then((value) => ({ value }), (error) => ({ error })),
            deadline,
        ]);
        return { ...outcome, ms: Date.now() - started };
    } finally {
        clearTimeout(timer);
    }
}

// Polls `probe` (sync or async) until it returns a truthy value; fails after `ms` with `describe()`.
export async function until(probe, ms, describe) {
    const end = Date.now() + ms;
    for (;;) {
        const value = await probe();
        if (value)
            return value;
        if (Date.now() > end)
            throw new Error(`${typeof describe === 'function' ? describe() : describe} (after ${ms} ms)`);
        await sleep(25);
    }
}

export function fdCount(pid) { return readdirSync(`/proc/${pid}/fd`).length; }
export function threadCount(pid) { return readdirSync(`/proc/${pid}/task`).length; }

// utime + stime of a process, in clock ticks (/proc/PID/stat fields 14 and 15).
export function cpuTicks(pid) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
}

// A process that exists and is not a zombie.
export function alive(pid) {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
    } catch {
        return false;
    }
}

// Whether a process burns CPU: its CPU time over `ms`, as a share of one core (0 once it is gone).
export async function cpuShare(pid, ms) {
    const before = cpuTicks(pid);
    await sleep(ms);
    return alive(pid) ? (cpuTicks(pid) - before) / 100 / (ms / 1000) : 0; // USER_HZ is 100 on Linux
}

// What a test started, undone in reverse order whatever happens. A step that takes more than 10 s
// says so on stderr, with the step's first words (some CI runs spent a minute in the fault tests
// that start a test desktop, where 5 s is usual; the slow-test timeline below found it there).
const SLOW_STEP_MS = 10000;
export class Cleanup {
    constructor() {
        this.steps = [];
        this.startedAt = Date.now();
        this.timeline = []; // when each step was added: how far the test had come
    }
    add(step) {
        this.steps.push(step);
        this.timeline.push(`+${Date.now() - this.startedAt} ms ${String(step).slice(0, 60).replace(/\s+/g, ' ')}`);
    }
    dir(prefix) {
        const dir = mkdtempSync(path.join(tmpdir(), prefix));
        this.add(() => {
            // A directory a test made read-only must be writable again to be removed.
            spawnSync('chmod', ['-R', 'u+rwx', dir]);
            rmSync(dir, { recursive: true, force: true });
        });
        return dir;
    }
    // A child process: killed (SIGKILL; a stopped one too) and awaited unless it has exited.
    // `child.exited` resolves when it has.
    child(child) {
        child.exited = new Promise((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null)
                resolve();
            else
                child.once('exit', () => resolve());
        });
        this.add(async () => {
            if (child.exitCode === null && child.signalCode === null) {
                child.kill('SIGKILL');
                await child.exited;
            }
        });
        return child;
    }
    async run() {
        const errors = [];
        for (const step of this.steps.reverse()) {
            const startedAt = Date.now();
            try {
                await step();
            } catch (err) {
                errors.push(err);
            }
            if (Date.now() - startedAt > SLOW_STEP_MS)
                console.error(`a cleanup step took ${Date.now() - startedAt} ms: ${String(step).slice(0, 100)}`);
        }
        if (errors.length)
            throw errors[0];
    }
}

// Runs `fn(cleanup)` and then the cleanup; `make` gives a Cleanup of a subclass.
// A test that takes more than SLOW_TEST_MS says on stderr when each of its steps was added, and when
// its body ended: where the time went.
const SLOW_TEST_MS = 30000;
export async function withCleanup(fn, make = () => new Cleanup()) {
    const c = make();
    try {
        return await fn(c);
    } finally {
        const bodyMs = Date.now() - c.startedAt;
        await c.run();
        if (Date.now() - c.startedAt > SLOW_TEST_MS)
            console.error(`a slow test: ${c.timeline.join('; ')}; body ended +${bodyMs} ms; cleanup ended +${Date.now() - c.startedAt} ms`);
    }
}

// Whether this system lets us mount a tmpfs in a user and mount namespace of our own: null, or why not.
export function probeUnshare() {
    const probe = mkdtempSync(path.join(tmpdir(), 'faults-unshare-probe-'));
    try {
        const r = spawnSync('unshare', ['-Urm', 'sh', '-c', 'mount -t tmpfs -o size=16k faults-probe "$0"', probe],
            { encoding: 'utf8', timeout: 10000 });
        if (r.error)
            return `unshare cannot run: ${r.error.message}`;
        if (r.status !== 0)
            return `unshare -Urm with a tmpfs mount is not allowed here: ${(r.stderr || '').trim()}`;
        return null;
    } finally {
        rmSync(probe, { recursive: true, force: true });
    }
}

const TEST_DESKTOP = fileURLToPath(new URL('../../scripts/test-desktop', import.meta.url));
const DESKTOP_TOOLS = ['Xvfb', 'dbus-daemon', 'openbox', 'xprop', '/usr/libexec/at-spi-bus-launcher', '/usr/libexec/at-spi2-registryd'];

// null when the test desktop can start here, else what it lacks.
export function missingDesktopTools() {
    const missing = DESKTOP_TOOLS.filter((t) =>
        spawnSync('sh', ['-c', 'command -v "$0"', t], { stdio: 'ignore' }).status !== 0);
    return missing.length ? `the test desktop needs ${missing.join(', ')}` : null;
}

// A private virtual desktop (scripts/test-desktop start), stopped by the cleanup: its directory,
// the variables the programs need and the X server's pid. An X server killed with SIGKILL leaves its
// lock file and socket behind (/tmp/.X<n>-lock, /tmp/.X11-unix/X<n>), and test-desktop takes a
// display with either as in use, so the cleanup removes them too when they name our dead server.
// A start that takes more than 10 s says so on stderr (some CI runs have spent a minute in these
// tests, where 5 s is usual; a slow stop is a cleanup step, which says so itself).
export async function startDesktop(c) {
    const startedAt = Date.now();
    const dir = await new Promise((resolve, reject) =>
        execFile(TEST_DESKTOP, ['start'], { timeout: 60000 }, (err, stdout, stderr) =>
            err ? reject(new Error(`test-desktop start failed: ${stderr}`)) : resolve(stdout.trim())));
    if (Date.now() - startedAt > SLOW_STEP_MS)
        console.error(`test-desktop start took ${Date.now() - startedAt} ms`);
    let display = null;
    let xPid = null;
    c.add(async () => {
        await new Promise((resolve) => execFile(TEST_DESKTOP, ['stop', dir], { timeout: 60000 }, () => resolve()));
        if (display === null || xPid === null || alive(xPid))
            return;
        const lock = `/tmp/.X${display}-lock`;
        let owner = null;
        try {
            owner = Number(readFileSync(lock, 'utf8').trim());
        } catch {
            return;
        }
        if (owner === xPid) {
            rmSync(lock, { force: true });
            rmSync(`/tmp/.X11-unix/X${display}`, { force: true });
        }
    });
    xPid = Number(readFileSync(path.join(dir, 'pids'), 'utf8').split('\n')[0]);
    // The four variables, read from the lines test-desktop writes for them (`export NAME="value"`).
    // A bash that sourced the file and printed its environment took a minute in some CI runs, with
    // the test's event loop blocked the while (the slow-test timeline showed it there).
    const lines = readFileSync(path.join(dir, 'env'), 'utf8');
    const env = {};
    for (const k of ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS', 'XDG_RUNTIME_DIR'])
        env[k] = new RegExp(`^export ${k}="([^"]*)"$`, 'm').exec(lines)?.[1];
    display = /^:(\d+)$/.exec(env.DISPLAY ?? '')?.[1] ?? null;
    return { dir, env, xPid };
}
