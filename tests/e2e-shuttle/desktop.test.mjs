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
