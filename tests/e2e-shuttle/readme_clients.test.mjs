// Every shuttle entry of the README's MCP client snippets (Claude Desktop and Claude Code, VS Code,
// Cursor), started as written behind the real SDK client against a running daemon: it must serve
// the desk's tools and run one.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { textOf, withSandbox } from './helpers.mjs';
import { readmeClientSnippets, serverEntries } from '../support/readme_clients.mjs';

test('every shuttle entry of the README starts a working MCP front', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const snippets = readmeClientSnippets();
        assert.ok(snippets.length >= 3, 'the README has the client snippets');
        for (const { client, config } of snippets) {
            const entry = serverEntries(config).find((e) => e.name === 'shuttle');
            assert.ok(entry, `${client}: no shuttle entry`);
            assert.equal(entry.command, 'shuttle', client);
            const mcp = await box.startMcp({ args: entry.args });
            const { tools } = await mcp.client.listTools();
            assert.ok(tools.some((t) => t.name === 'desk_windows'), `${client}: ${tools.map((t) => t.name).join(', ')}`);
            const windows = await mcp.call('desk_windows', {});
            assert.ok(!windows.isError, `${client}: ${textOf(windows)}`);
        }
    }));
