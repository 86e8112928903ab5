// run.mjs end to end as a child process: each outcome file it can leave (result.json, error.json of
// each kind), params, logs, the desk global over a stand-in daemon, and SIGTERM.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { FakeDaemon, ScriptRun, ok, tempDir } from './helpers.mjs';

// Runs `script` with `options` (params, socket, ...) and returns what run() gives.
async function runScript(script, options = {}) {
    const run = new ScriptRun({ script, ...options });
    try {
        return await run.run();
    } finally {
        run.remove();
    }
}

test('main\'s return value goes to result.json; logs to stdout and stderr; exit 0', async () => {
    const out = await runScript(`
        export async function main() {
            console.log('hello from the script');
            console.error('a warning');
            return { answer: 42, list: [1, 'two'] };
        }`);
    assert.equal(out.code, 0, out.stderr);
    assert.deepEqual(out.result, { answer: 42, list: [1, 'two'] });
    assert.equal(out.error, undefined);
    assert.equal(out.stdout, 'hello from the script\n');
    assert.equal(out.stderr, 'a warning\n');
});

test('undefined is saved as null', async () => {
    const out = await runScript('export function main() {}');
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.result, null);
});

test('params.json is main\'s argument; without it, {}', async () => {
    const script = 'export const main = (params) => params;';
    assert.deepEqual((await runScript(script, { params: { name: 'check', n: 3 } })).result, { name: 'check', n: 3 });
    assert.deepEqual((await runScript(script)).result, {});
});

test('a syntax error is an import failure with the place', async () => {
    const out = await runScript('export async function main( {\n');
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.result, undefined);
    assert.equal(out.error.kind, 'import');
    assert.match(out.error.message, /SyntaxError/);
    assert.match(out.error.message, /script\.mjs/);
});

test('a missing script is an import failure', async () => {
    const temp = tempDir();
    try {
        const out = await runScript(undefined, { scriptPath: path.join(temp.dir, 'nonesuch.mjs') });
        assert.equal(out.code, 0, out.stderr);
        assert.equal(out.error.kind, 'import');
        assert.match(out.error.message, /nonesuch\.mjs/);
    } finally {
        temp.remove();
    }
});

test('a throw at the top level is an import failure with its stack', async () => {
    const out = await runScript('throw new Error("not ready");\nexport function main() {}');
    assert.equal(out.error.kind, 'import');
    assert.match(out.error.message, /^Error: not ready\n\s+at /);
});

test('no exported main: no_main, naming what the module exports', async () => {
    const out = await runScript('export function run() {}\nexport const x = 1;');
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.error.kind, 'no_main');
    assert.match(out.error.message, /exports only run, x/);
    const notFunction = await runScript('export const main = 3;');
    assert.equal(notFunction.error.kind, 'no_main');
    assert.match(notFunction.error.message, /main is number, not a function/);
    assert.match((await runScript('')).error.message, /exports nothing/);
});

test('a throw in main is an exception with its stack', async () => {
    const out = await runScript(`
        function deep() { throw new TypeError('the button was not there'); }
        export async function main() { await null; deep(); }`);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.result, undefined);
    assert.equal(out.error.kind, 'exception');
    assert.match(out.error.message, /^TypeError: the button was not there\n\s+at deep /);
    const notError = await runScript('export function main() { throw "plain"; }');
    assert.deepEqual(notError.error, { kind: 'exception', message: 'plain' });
});

test('a result that cannot be JSON is an exception saying why', async () => {
    const big = await runScript('export function main() { return { n: 10n }; }');
    assert.equal(big.error.kind, 'exception');
    assert.match(big.error.message, /cannot be saved as JSON: .*BigInt/);
    const cycle = await runScript('export function main() { const a = {}; a.self = a; return a; }');
    assert.equal(cycle.error.kind, 'exception');
    assert.match(cycle.error.message, /cannot be saved as JSON: .*circular/);
    assert.equal(cycle.result, undefined);
});

test('a main that can never finish is an exception; one that exits the process is kind exit with its code', async () => {
    const stuck = await runScript('export async function main() { await new Promise(() => {}); }');
    assert.equal(stuck.code, 0, stuck.stderr);
    assert.equal(stuck.error.kind, 'exception');
    assert.match(stuck.error.message, /never finished/);
    const exited = await runScript('export function main() { process.exit(3); }');
    assert.equal(exited.code, 3, exited.stderr);
    assert.equal(exited.error.kind, 'exit');
    assert.match(exited.error.message, /process\.exit\(3\)/);
    const escaped = await runScript(`export async function main() {
        setTimeout(() => { throw new RangeError('in a timer'); }, 0);
        await new Promise((resolve) => setTimeout(resolve, 5000));
    }`);
    assert.equal(escaped.error.kind, 'exception');
    assert.match(escaped.error.message, /RangeError: in a timer/);
});

test('timers the script leaves behind do not hold the run open', async () => {
    const started = Date.now();
    const out = await runScript('export function main() { setInterval(() => {}, 1000); return "done"; }');
    assert.equal(out.result, 'done');
    assert.ok(Date.now() - started < 5000);
});

test('desk calls reach the daemon with the run\'s agent id', async () => {
    const temp = tempDir();
    const socket = path.join(temp.dir, 'desk.sock');
    const daemon = new FakeDaemon(socket, (r) => (r.tool === 'desk_find'
        ? ok({ nodes: [{ id: 's1:4', name: 'Check' }] })
        : ok({ pressed: r.args.id, how: 'action' })));
    await daemon.listening;
    try {
        const out = await runScript(`
            export async function main(params) {
                const hits = await desk.find({ name: params.name });
                return await desk.press(hits.nodes[0].id);
            }`, { socket, params: { name: 'check' }, agent: 'run-5' });
        assert.equal(out.code, 0, out.stderr);
        assert.deepEqual(out.result, { pressed: 's1:4', how: 'action' });
        assert.deepEqual(daemon.requests, [
            { agent_id: 'run-5', tool: 'desk_find', args: { name: 'check' } },
            { agent_id: 'run-5', tool: 'desk_press', args: { id: 's1:4' } },
        ]);
    } finally {
        await daemon.close();
        temp.remove();
    }
});

test('SIGTERM runs the script\'s handler, rejects a pending desk call, and writes no outcome', async () => {
    const temp = tempDir();
    const socket = path.join(temp.dir, 'desk.sock');
    const daemon = new FakeDaemon(socket, () => null);
    await daemon.listening;
    const run = new ScriptRun({
        socket,
        script: `
            process.on('SIGTERM', () => console.log('handler ran'));
            export async function main() {
                try {
                    await desk.still({ hold_ms: 100, timeout_ms: 60000 });
                } catch (err) {
                    console.log('rejected: ' + err.message);
                    return 'caught';
                }
            }`,
    });
    try {
        const out = await run.run(async (child) => {
            while (daemon.requests.length === 0)
                await new Promise((resolve) => setTimeout(resolve, 20));
            child.kill('SIGTERM');
        });
        assert.equal(out.code, 143);
        assert.match(out.stdout, /handler ran/);
        assert.match(out.stdout, /rejected: desk_still: the run was stopped \(SIGTERM/);
        assert.equal(out.result, undefined);
        assert.equal(out.error, undefined);
        assert.ok(!existsSync(path.join(run.runDir, 'result.json')));
    } finally {
        run.remove();
        await daemon.close();
        temp.remove();
    }
});
