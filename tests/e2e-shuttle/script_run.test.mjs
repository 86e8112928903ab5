// script_run through `shuttle mcp` and a real daemon on the mock backend, as an agent calls it: a
// script file named relative to the agent's working directory, a run that reads the desk and
// reports progress, a failed run as a tool error carrying the whole report, and a model key the
// daemon holds that no script sees.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { textOf, withSandbox } from './helpers.mjs';

test('script_run: a relative path, the desk from a script, progress while it runs', () =>
    withSandbox(async (box) => {
        await box.startDaemon({ OPENROUTER_API_KEY: 'sk-or-never-seen' });
        const work = path.join(box.dir, 'work');
        mkdirSync(path.join(work, 'scripts'), { recursive: true });
        writeFileSync(path.join(work, 'scripts', 'count.mjs'), `
            export async function main({ pause }) {
                const { windows } = await desk.windows();
                console.log('windows', windows.length);
                await new Promise((r) => setTimeout(r, pause));
                return { count: windows.length, key: process.env.OPENROUTER_API_KEY ?? null };
            }`);
        const mcp = await box.startMcp({ cwd: work });
        const progress = [];
        const result = await mcp.client.callTool(
            { name: 'script_run', arguments: { path: 'scripts/count.mjs', params: { pause: 900 }, timeout_s: 20 } },
            undefined, { onprogress: (p) => progress.push(p) });
        assert.equal(result.isError, false, textOf(result));
        const report = JSON.parse(textOf(result));
        assert.ok(report.result.count > 0, textOf(result));
        assert.equal(report.result.key, null);
        assert.match(report.logs, /^windows \d+\n$/);
        assert.equal(report.exit_code, 0);
        assert.ok(progress.length >= 2, JSON.stringify(progress));
        assert.ok(progress.every((p) => p.total === 20000), JSON.stringify(progress));
    }));

test('script_run: a failed run is a tool error whose text is the whole report', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const result = await mcp.call('script_run', {
            code: "export async function main() { console.log('before'); await desk.press('s9:999999'); }",
        });
        assert.equal(result.isError, true);
        const report = JSON.parse(textOf(result));
        assert.equal(report.error.kind, 'exception', textOf(result));
        assert.match(report.error.message, /DeskError/);
        assert.equal(report.logs, 'before\n');
        const refused = await mcp.call('script_run', { path: 'nowhere.mjs' });
        assert.equal(refused.isError, true);
        assert.equal(JSON.parse(textOf(refused)).error.kind, 'import', textOf(refused));
    }));

test('script_run: an MCP cancel ends the run and its processes, and the next call runs at once', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const pidFile = path.join(box.dir, 'child.pid');
        const controller = new AbortController();
        const running = mcp.call('script_run', {
            code: `import { spawn } from 'node:child_process';
                import { writeFileSync } from 'node:fs';
                export async function main({ file }) {
                    process.on('SIGTERM', () => {});
                    writeFileSync(file, String(spawn('sleep', ['1000'], { stdio: 'ignore' }).pid));
                    await new Promise(() => setInterval(() => {}, 1000));
                }`,
            params: { file: pidFile },
        }, { signal: controller.signal });
        let child = 0;
        for (let i = 0; i < 100 && !child; i++) {
            await new Promise((r) => setTimeout(r, 100));
            try { child = Number(readFileSync(pidFile, 'utf8')); } catch { /* not yet */ }
        }
        assert.ok(child > 0, 'the script did not start its child');
        const start = Date.now();
        controller.abort();
        await assert.rejects(running, (err) => /abort/i.test(String(err.message)));
        const next = await mcp.call('script_run', { code: 'export function main() { return 1; }' });
        assert.equal(JSON.parse(textOf(next)).result, 1, textOf(next));
        assert.ok(Date.now() - start < 5000, `the next run answered after ${Date.now() - start} ms`);
        assert.ok(!alive(child), `the cancelled run's child ${child} is still running`);
    }));

// Running, not a zombie left for init to reap.
function alive(pid) {
    try {
        process.kill(pid, 0);
    } catch {
        return false;
    }
    try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
    } catch {
        return false;
    }
}

test('gui_plan: a plan of desk steps answers its result; a failed step is an error naming it', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const { tools } = await mcp.client.listTools();
        assert.deepEqual(tools.slice(-2).map((t) => t.name), ['script_run', 'gui_plan']);
        const done = await mcp.call('gui_plan', { plan: {
            steps: [
                { id: 'w', do: 'windows', expect: { path: 'windows[*].app', contains: 'Chatter' } },
                { id: 'send', do: 'find', args: { name: 'Send', window: 'Chatter' } },
                { do: 'press', args: { id: '$send.nodes[0].id' } },
            ],
            result: { titles: '$w.windows[*].title', send: '$send.nodes[0].name' },
        } });
        assert.equal(done.isError, false, textOf(done));
        const result = JSON.parse(textOf(done));
        assert.equal(result.send, 'Send');
        assert.ok(result.titles.some((t) => t.startsWith('Chatter')), textOf(done));
        const failed = await mcp.call('gui_plan', { plan: { steps: [{ do: 'find', args: { name: 'Send', window: 'Nowhere' } },
            { do: 'press', args: { id: 'not-an-id' } }] } });
        assert.equal(failed.isError, true);
        const error = JSON.parse(textOf(failed)).error;
        assert.equal(error.step, 1, textOf(failed));
    }));
