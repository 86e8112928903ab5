// script_run through the SDK client, `shuttle mcp` and a daemon on the Linux backend, with a real
// app on the virtual test desktop: a script finds gtk3-widget-factory's check button through desk,
// presses it and returns its new state. Runs only inside the test desktop (scripts/test sets
// SHUTTLE_E2E_DESKTOP=1 there); elsewhere it is skipped.

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { textOf, withSandbox } from './helpers.mjs';

const onDesktop = process.env.SHUTTLE_E2E_DESKTOP === '1';

// The desktop's variables (display, session bus, AT-SPI) for the daemon.
function desktopEnv() {
    const env = {};
    for (const k of ['DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_RUNTIME_DIR', 'AT_SPI_BUS_ADDRESS', 'XAUTHORITY'])
        if (process.env[k] !== undefined)
            env[k] = process.env[k];
    return env;
}

test('script_run on a real app: the check button found, pressed, its new state returned', { skip: !onDesktop }, () =>
    withSandbox(async (box) => {
        const app = spawn('gtk3-widget-factory', [], { env: process.env, stdio: 'ignore', detached: true });
        try {
            await box.startDaemon(desktopEnv(), 'linux');
            const mcp = await box.startMcp();
            let listed = false;
            for (let i = 0; i < 100 && !listed; i++) {
                const windows = JSON.parse(textOf(await mcp.call('desk_windows')));
                listed = windows.windows.some((w) => w.app === 'gtk3-widget-factory');
                if (!listed)
                    await new Promise((r) => setTimeout(r, 200));
            }
            assert.ok(listed, 'gtk3-widget-factory never showed a window');
            const result = await mcp.call('script_run', {
                path: fileURLToPath(new URL('../../fixtures/scripts/press_check_button.mjs', import.meta.url)),
                params: { app: 'gtk3-widget-factory' },
                timeout_s: 30,
            });
            assert.equal(result.isError, false, textOf(result));
            const report = JSON.parse(textOf(result));
            assert.notEqual(report.result.after, report.result.before, textOf(result));
        } finally {
            process.kill(-app.pid, 'SIGKILL');
        }
    }));

test('the vision verbs through the SDK client and a script: a JPEG state, an act by index, the scale', { skip: !onDesktop }, () =>
    withSandbox(async (box) => {
        const app = spawn('gtk3-widget-factory', [], { env: process.env, stdio: 'ignore', detached: true });
        try {
            await box.startDaemon(desktopEnv(), 'linux');
            const mcp = await box.startMcp();
            let state;
            for (let i = 0; i < 100; i++) {
                state = await mcp.call('desk_computer_state', { max_edge: 800 });
                assert.equal(state.isError, false, textOf(state));
                if (JSON.parse(textOf(state)).windows.some((w) => w.app === 'gtk3-widget-factory'))
                    break;
                await new Promise((r) => setTimeout(r, 200));
            }
            const parsed = JSON.parse(textOf(state));
            const image = state.content.find((b) => b.type === 'image');
            assert.ok(image, 'no image block');
            assert.equal(image.mimeType, 'image/jpeg');
            const bytes = Buffer.from(image.data, 'base64');
            assert.equal(bytes[0], 0xff);
            assert.equal(bytes[1], 0xd8, 'not a JPEG');
            assert.equal(bytes.length, parsed.screenshot.bytes);
            assert.equal(Math.max(parsed.screenshot.width, parsed.screenshot.height), 800);
            // The MCP session's agent has a default session of its own; the scale is its screenshot's.
            const scale = JSON.parse(textOf(await mcp.call('desk_computer_scale')));
            assert.equal(scale.session, parsed.session);
            assert.equal(scale.scale, parsed.screenshot.scale);
            const box_ = parsed.elements.find((e) => e[1] === 'check_box' && !(e[5] ?? '').includes('disabled'));
            assert.ok(box_, textOf(state));
            const acted = await mcp.call('desk_computer_act', { action: 'click', element: box_[0] });
            assert.equal(acted.isError, false, textOf(acted));
            assert.ok(acted.content.some((b) => b.type === 'image' && b.mimeType === 'image/jpeg'));
            const after = JSON.parse(textOf(await mcp.call('desk_computer_state', { query: box_[2], max_edge: 800 })));
            const same = after.elements.find((e) => e[3] === box_[3] && e[4] === box_[4]);
            assert.ok(same, textOf(state));
            assert.notEqual((same[5] ?? '').includes('checked'), (box_[5] ?? '').includes('checked'), 'the check box did not toggle');

            // A script sees the same verbs on the runtime's desk, with the picture's type.
            const run = await mcp.call('script_run', {
                code: 'export async function main() { const s = await desk.computer_state({max_edge: 400}); ' +
                    'return {mime: s.image_mime, edge: Math.max(s.screenshot.width, s.screenshot.height), ' +
                    'session: s.session, title: (await desk.title_at({x: 5, y: 5})).where}; }',
                timeout_s: 30,
            });
            assert.equal(run.isError, false, textOf(run));
            const report = JSON.parse(textOf(run)).result;
            assert.equal(report.mime, 'image/jpeg');
            assert.equal(report.edge, 400);
            assert.notEqual(report.session, parsed.session, 'a run has a default session of its own');
            assert.equal(typeof report.title, 'string');
        } finally {
            process.kill(-app.pid, 'SIGKILL');
        }
    }));
