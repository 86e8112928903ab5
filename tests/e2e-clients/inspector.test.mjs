// The MCP Inspector's CLI mode, as a person checking a server from the shell would use it: it
// lists the tools (with its schema portability check, --strict) and calls one, on both programs,
// in both protocol eras.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { PROGRAMS, inspector } from './clients.mjs';

const QUICK = {
    'nish-driver': { tool: 'health_report', args: {}, text: /backend mock: ready/ },
    'shuttle mcp': { tool: 'desk_windows', args: {}, text: /"windows"/ },
};

for (const program of PROGRAMS) {
    for (const era of ['legacy', 'modern']) {
        test(`Inspector CLI (${era} era) lists and calls ${program.name}'s tools`, async () => {
            const running = await program.start();
            try {
                const common = ['--protocol-era', era, '--format', 'json', '-q'];
                const listed = await inspector(running.params, [...common, '--method', 'tools/list', '--strict']);
                assert.equal(listed.code, 0, `tools/list exited ${listed.code}: ${listed.stderr}`);
                const { tools } = JSON.parse(listed.stdout).result;
                assert.ok(tools.length > 10, listed.stdout.slice(0, 400));
                assert.equal(new Set(tools.map((t) => t.name)).size, tools.length);

                const { tool, args, text } = QUICK[program.name];
                const called = await inspector(running.params,
                    [...common, '--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args)]);
                assert.equal(called.code, 0, `tools/call exited ${called.code}: ${called.stderr}${called.stdout}`);
                const { result } = JSON.parse(called.stdout);
                assert.equal(result.isError, false);
                assert.match(result.content[0].text, text);
            } finally {
                await running.close();
            }
        });
    }
}
