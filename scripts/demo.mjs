#!/usr/bin/env node
// The README's demo: drive nish-driver on its mock desktop through the real MCP TypeScript SDK
// client, the way a model's host would, and print each step briefly.
//
//   (cd tests/e2e && npm install)   # once: the SDK lives in tests/e2e/node_modules
//   node scripts/demo.mjs
//
// $NISH_DRIVER_BIN picks the binary (default: build/bin/nish-driver of this checkout). Exits
// non-zero when any step fails.

import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The SDK is installed for the end-to-end tests; resolve it from there rather than from scripts/.
const e2e = new URL('../tests/e2e/', import.meta.url);
const require = createRequire(new URL('package.json', e2e));
let Client;
let StdioClientTransport;
try {
    ({ Client } = require('@modelcontextprotocol/sdk/client/index.js'));
    ({ StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js'));
} catch (err) {
    console.error(`demo: the MCP SDK is missing; run npm install in tests/e2e first (${err.message})`);
    process.exit(2);
}

const BIN = process.env.NISH_DRIVER_BIN || fileURLToPath(new URL('../build/bin/nish-driver', import.meta.url));
const ARGS = ['mcp', '--backend', 'mock', '--consent', 'auto'];

function childEnv() {
    const env = {};
    for (const [k, v] of Object.entries(process.env))
        if ((k.startsWith('NISH_') || k === 'PATH' || k === 'HOME' || k === 'XDG_STATE_HOME') && v !== undefined)
            env[k] = v;
    return env;
}

function heading(title) {
    console.log(`\n== ${title}`);
}

// The first `n` lines of a tool's text, indented.
function show(text, n = 12) {
    const lines = text.replace(/\n+$/, '').split('\n');
    for (const l of lines.slice(0, n))
        console.log(`   ${l}`);
    if (lines.length > n)
        console.log(`   ... (${lines.length - n} more lines)`);
}

function textOf(result) {
    return result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

async function call(client, name, args) {
    const result = await client.callTool({ name, arguments: args });
    if (result.isError)
        throw new Error(`${name} failed: ${textOf(result).split('\n')[0]}`);
    return { data: result.structuredContent, text: textOf(result) };
}

function find(rows, name) {
    const r = rows.find((x) => (x.name ?? x.label) === name);
    if (!r)
        throw new Error(`no element named "${name}"`);
    return r;
}

async function main() {
    if (!existsSync(BIN))
        throw new Error(`nish-driver not found at ${BIN}; build it or set NISH_DRIVER_BIN`);
    const transport = new StdioClientTransport({ command: BIN, args: ARGS, env: childEnv(), stderr: 'inherit' });
    const client = new Client({ name: 'demo', version: '0.1.0' });
    await client.connect(transport);
    try {
        const server = client.getServerVersion();
        heading(`connected to ${server.name} ${server.version} (${BIN} ${ARGS.join(' ')})`);
        const { tools } = await client.listTools();
        console.log(`   ${tools.length} tools: ${tools.map((t) => t.name).join(', ')}`);

        heading('start_session {}');
        show((await call(client, 'start_session', {})).text);

        heading('list_windows {}');
        show((await call(client, 'list_windows', {})).text);

        heading('get_window_state {app: "Chatter", skeleton: true}');
        const skeleton = await call(client, 'get_window_state', { app: 'Chatter', skeleton: true });
        show(skeleton.text, 20);

        const history = find(skeleton.data.elements, 'Message history');
        heading(`get_window_state {app: "Chatter", root: "${history.element_token}", max_elements: 12}`);
        show((await call(client, 'get_window_state',
            { app: 'Chatter', root: history.element_token, max_elements: 12 })).text, 14);

        heading('get_window_state {app: "Settings"}');
        const settings = await call(client, 'get_window_state', { app: 'Settings' });
        show(settings.text, 16);

        const remember = find(settings.data.elements, 'Remember me');
        heading(`click {element_token: "${remember.element_token}"}   ("Remember me")`);
        const clicked = await call(client, 'click', { element_token: remember.element_token });
        show(clicked.text);
        if (clicked.data.effect !== 'confirmed')
            throw new Error(`click was not confirmed: ${clicked.data.effect}`);

        const username = find(settings.data.elements, 'Username');
        heading(`set_value {element_token: "${username.element_token}", value: "grace"}   ("Username")`);
        const set = await call(client, 'set_value', { element_token: username.element_token, value: 'grace' });
        show(set.text);
        console.log(`   readback: ${set.data.readback}`);
        if (set.data.readback !== 'match')
            throw new Error(`set_value readback was ${set.data.readback}`);

        heading('done');
    } finally {
        await client.close();
    }
}

main().catch((err) => {
    console.error(`demo failed: ${err.message}`);
    process.exit(1);
});
