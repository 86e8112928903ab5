#!/usr/bin/env node
// The README's main job on a real desktop: drive nish-driver's Linux backend through the real MCP
// TypeScript SDK client, the way a model's host would, on gtk3-widget-factory (started by
// scripts/demo). It lists the windows, reads a skeleton, drills down, acts (a check button, an
// entry with readback) and saves a screenshot.
//
// $NISH_DRIVER_BIN picks the binary; $NISH_DEMO_SCREENSHOT where the PNG goes. Exits non-zero when
// a step fails.

import { createRequire } from 'node:module';
import { existsSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const require = createRequire(new URL('../tests/e2e/package.json', import.meta.url));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const BIN = process.env.NISH_DRIVER_BIN || fileURLToPath(new URL('../build/bin/nish-driver', import.meta.url));
const SHOT = process.env.NISH_DEMO_SCREENSHOT || fileURLToPath(new URL('../build/demo-screenshot.png', import.meta.url));
const ARGS = ['mcp', '--backend', 'linux', '--consent', 'auto'];
// The SDK's stdio transport passes only a few variables: the desktop's must be named.
const PASS = ['PATH', 'HOME', 'DISPLAY', 'DBUS_SESSION_BUS_ADDRESS', 'AT_SPI_BUS_ADDRESS', 'XDG_RUNTIME_DIR'];

function childEnv() {
    const env = {};
    for (const [k, v] of Object.entries(process.env))
        if ((PASS.includes(k) || k.startsWith('NISH_')) && v !== undefined)
            env[k] = v;
    return env;
}

const textOf = (r) => r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');

function show(title, text, n = 14) {
    console.log(`\n== ${title}`);
    const lines = text.replace(/\n+$/, '').split('\n');
    for (const l of lines.slice(0, n))
        console.log(`   ${l}`);
    if (lines.length > n)
        console.log(`   ... (${lines.length - n} more lines)`);
}

async function call(client, name, args) {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError)
        throw new Error(`${name} failed: ${textOf(result).split('\n')[0]}`);
    return result;
}

async function main() {
    if (!existsSync(BIN))
        throw new Error(`nish-driver not found at ${BIN}`);
    const client = new Client({ name: 'demo', version: '0.1.0' });
    await client.connect(new StdioClientTransport({ command: BIN, args: ARGS, env: childEnv(), stderr: 'inherit' }));
    try {
        const health = await call(client, 'health_report', {});
        show('health_report', textOf(health), 6);
        let windows;
        // The app may still be starting: ask for a session once its window is there.
        for (let i = 0; i < 100; i++) {
            const started = await client.callTool({ name: 'start_session', arguments: {} });
            if (!started.isError) {
                windows = (await call(client, 'list_windows', { app: 'widget' })).structuredContent.windows;
                if (windows.length)
                    break;
            }
            await new Promise((r) => setTimeout(r, 200));
        }
        if (!windows?.length)
            throw new Error('gtk3-widget-factory did not show up');
        show('list_windows', textOf(await call(client, 'list_windows', {})));
        const target = { window_id: windows[0].window_id };

        // A window that just opened is still laying itself out: wait until two reads agree.
        let skeleton = await call(client, 'get_window_state', { ...target, skeleton: true });
        for (let i = 0; i < 50; i++) {
            await new Promise((r) => setTimeout(r, 100));
            const again = await call(client, 'get_window_state', { ...target, skeleton: true });
            const settled = again.structuredContent.snapshot_id === skeleton.structuredContent.snapshot_id;
            skeleton = again;
            if (settled)
                break;
        }
        show('get_window_state {skeleton: true}', textOf(skeleton));
        const tabs = skeleton.structuredContent.elements.find((r) => r.role === 'page_tab_list');
        if (tabs)
            show(`get_window_state {root: "${tabs.element_token}"}`,
                textOf(await call(client, 'get_window_state', { root: tabs.element_token })));

        const full = (await call(client, 'get_window_state', { ...target, max_elements: 5000, max_depth: 200 }))
            .structuredContent.elements;
        const check = full.find((r) => r.role === 'check_box' && r.name === 'checkbutton' && r.states.includes('enabled'));
        show(`click {element_token: "${check.element_token}"} (check button)`,
            textOf(await call(client, 'click', { element_token: check.element_token })));
        const entry = full.find((r) => r.role === 'text' && r.value === 'entry' && r.states.includes('enabled'));
        show(`set_value {element_token: "${entry.element_token}", value: "typed by nish-driver"}`,
            textOf(await call(client, 'set_value', { element_token: entry.element_token, value: 'typed by nish-driver' })));

        const shot = await call(client, 'get_window_state', { ...target, include_screenshot: true, max_elements: 1 });
        const image = shot.content.find((b) => b.type === 'image');
        if (!image)
            throw new Error('no screenshot came back');
        writeFileSync(SHOT, Buffer.from(image.data, 'base64'));
        console.log(`\n== screenshot saved to ${SHOT} (${shot.structuredContent.screenshot.width}x${shot.structuredContent.screenshot.height})`);
        await call(client, 'end_session', {});
    } finally {
        await client.close();
    }
}

main().catch((err) => {
    console.error(`demo: ${err.message}`);
    process.exit(1);
});
