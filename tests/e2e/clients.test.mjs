// What a person copies into an MCP client: every nish-driver entry of the README's client snippets
// (Claude Desktop and Claude Code, VS Code, Cursor) started as written, plus the mock backend's
// arguments, behind the real SDK client; and the driver daemon shared by two SDK clients through
// `nish-driver mcp --connect`, with `nish-driver metadata` reading it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CONTRACT_TOOLS, DRIVER_BIN, startDriver } from './helpers.mjs';
import { readmeClientSnippets, serverEntries } from '../support/readme_clients.mjs';

const MOCK = ['--backend', 'mock', '--consent', 'auto'];

test('the README names a snippet for Claude, VS Code and Cursor, each with both programs', () => {
    const snippets = readmeClientSnippets();
    for (const client of ['Claude Desktop', 'Claude Code', 'VS Code', 'Cursor'])
        assert.ok(snippets.some((s) => s.client.includes(client)), `no snippet names ${client}`);
    for (const { client, config } of snippets) {
        const names = serverEntries(config).map((e) => e.name).sort();
        assert.deepEqual(names, ['nish-driver', 'shuttle'], client);
        for (const entry of serverEntries(config)) {
            assert.equal(entry.command, entry.name, `${client}: ${entry.name} runs its own program`);
            if (client.includes('VS Code'))
                assert.equal(entry.type, 'stdio', `${client}: VS Code names the transport`);
        }
    }
});

test('every nish-driver entry of the README starts a working server', async () => {
    for (const { client, config } of readmeClientSnippets()) {
        const entry = serverEntries(config).find((e) => e.name === 'nish-driver');
        const d = await startDriver('readme', [...entry.args, ...MOCK]);
        try {
            const { tools } = await d.client.listTools();
            assert.deepEqual(tools.map((t) => t.name).sort(), [...CONTRACT_TOOLS].sort(), client);
            await d.ok('start_session', {});
            assert.ok((await d.ok('list_windows', {})).data.windows.length > 0, client);
        } finally {
            await d.close();
        }
    }
});

async function startDaemon(socket) {
    const child = spawn(DRIVER_BIN, ['daemon', ...MOCK, '--socket', socket], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, NISH_AUDIT_LOG: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    for (let i = 0; i < 500 && !existsSync(socket); i++)
        await new Promise((r) => setTimeout(r, 10));
    if (!existsSync(socket))
        throw new Error(`the daemon did not listen: ${stderr}`);
    return child;
}

test('two SDK clients share one daemon through mcp --connect, each with its own session', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'nish-daemon-e2e-'));
    const socket = path.join(dir, 'daemon.sock');
    const daemon = await startDaemon(socket);
    const clients = [];
    try {
        for (const name of ['host-one', 'host-two'])
            clients.push(await startDriver(name, ['mcp', '--connect', '--socket', socket]));
        const sessions = [];
        for (const d of clients) {
            const { tools } = await d.client.listTools();
            assert.deepEqual(tools.map((t) => t.name).sort(), [...CONTRACT_TOOLS].sort());
            sessions.push((await d.ok('start_session', {})).data.session);
        }
        assert.match(sessions[0], /host-one/);
        assert.match(sessions[1], /host-two/);
        const state = await clients[1].read('Settings', { skeleton: true });
        assert.ok(state.elements.length > 0);

        const meta = spawnSync(DRIVER_BIN, ['metadata', '--socket', socket], { encoding: 'utf8' });
        assert.equal(meta.status, 0, meta.stderr);
        const m = JSON.parse(meta.stdout);
        assert.equal(m.name, 'nish-driver');
        assert.match(m.contract_version, /^\d+\.\d+\.\d+$/);
        assert.equal(m.backend.name, 'mock');
        assert.ok(m.connections >= 2, JSON.stringify(m));
    } finally {
        for (const d of clients)
            await d.close();
        const exited = new Promise((r) => daemon.on('exit', r));
        daemon.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
    }
    assert.equal(daemon.exitCode, 0);
    assert.ok(!existsSync(socket), 'the daemon removes its socket');
});
