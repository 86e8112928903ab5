// Plugins through `shuttle mcp` and a real daemon, as an agent sees them (docs/plugins.md): a
// tools.d beside config.toml with a plugin whose bin is a small shell runner of this test's own,
// a plugin with a resource, and bad files. The agent lists the plugin after script_run with
// script_run's schema, calls it with a path relative to its working directory, lists and reads the
// resource; `shuttle plugins` says what loaded and what was refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { textOf, withSandbox } from './helpers.mjs';

// Answers script_run's report the way the runtime would: result.json in SHUTTLE_RUN, from the
// params, the script it was handed and its one argument.
const RUNNER = `#!/bin/sh
echo "flow $SHUTTLE_SCRIPT"
printf '{"params":%s,"script":"%s","entry":"%s","argc":%s}' "$(cat "$SHUTTLE_RUN/params.json")" "$SHUTTLE_SCRIPT" "$1" "$#" > "$SHUTTLE_RUN/result.json"
`;

function writePlugins(box) {
    const tools = path.join(box.dir, 'tools.d');
    mkdirSync(tools);
    const bin = path.join(box.dir, 'flow.sh');
    writeFileSync(bin, RUNNER);
    chmodSync(bin, 0o755);
    const guide = path.join(box.dir, 'flow-guide.md');
    writeFileSync(guide, '# Flows\nA flow is a file of steps.\n');
    writeFileSync(path.join(tools, '10-flow.json'), JSON.stringify({
        name: 'flow_run',
        description: 'Runs a flow file (steps, one a line) against the desk.',
        bin,
        resources: [{ uri: 'flow://guide', path: guide, mime: 'text/markdown', description: 'How to write a flow' }],
    }));
    writeFileSync(path.join(tools, '20-bad.json'), JSON.stringify({ name: 'bad_run', description: 'x', bin: 'relative/bin' }));
    writeFileSync(path.join(tools, '30-service.json'), JSON.stringify({ service: { name: 'later' } }));
    // Valid JSON's grammar, but no double holds it: this once stopped the daemon at start.
    writeFileSync(path.join(tools, '40-huge.json'), '{"name": "huge_run", "description": "x", "bin": "/bin/true", "n": 1e999}');
}

test('a plugin is listed after the built-in tools with script_run\'s schema, runs its own program, and serves its resource', () =>
    withSandbox(async (box) => {
        writePlugins(box);
        await box.startDaemon();
        const work = path.join(box.dir, 'work');
        mkdirSync(work);
        const mcp = await box.startMcp({ cwd: work });

        const { tools } = await mcp.client.listTools();
        const names = tools.map((t) => t.name);
        assert.deepEqual(names.slice(-3), ['script_run', 'gui_plan', 'flow_run']);
        const flow = tools.at(-1);
        assert.equal(flow.description, 'Runs a flow file (steps, one a line) against the desk.');
        assert.deepEqual(flow.inputSchema, tools.find((t) => t.name === 'script_run').inputSchema);
        // shuttle mcp says what it refused on stderr, before it serves (the pipe may deliver it later).
        for (let i = 0; i < 40 && !mcp.stderr.includes('refused'); ++i)
            await new Promise((r) => setTimeout(r, 50));
        assert.match(mcp.stderr, /20-bad\.json refused: bin: must be an absolute path/);

        const result = await mcp.call('flow_run', { path: 'login.flow', params: { user: 'ada' } });
        assert.equal(result.isError, false, textOf(result));
        const report = JSON.parse(textOf(result));
        assert.deepEqual(report.result.params, { user: 'ada' });
        assert.equal(report.result.script, path.join(work, 'login.flow'));
        assert.match(report.result.entry, /\/run\.mjs$/);
        assert.equal(report.result.argc, 1);
        assert.equal(report.logs, `flow ${path.join(work, 'login.flow')}\n`);
        assert.equal(report.exit_code, 0);

        const { resources } = await mcp.client.listResources();
        assert.deepEqual(resources, [{ uri: 'flow://guide', name: 'flow-guide.md', mimeType: 'text/markdown',
            description: 'How to write a flow' }]);
        const read = await mcp.client.readResource({ uri: 'flow://guide' });
        assert.deepEqual(read.contents, [{ uri: 'flow://guide', mimeType: 'text/markdown', text: '# Flows\nA flow is a file of steps.\n' }]);
        await assert.rejects(mcp.client.readResource({ uri: 'flow://nowhere' }), /Resource not found/);

        const listed = await box.run(['plugins']);
        assert.equal(listed.code, 1, listed.stderr);
        const summary = JSON.parse(listed.stdout);
        assert.deepEqual(summary.loaded.map((p) => p.name), ['flow_run']);
        // A file with a "service" key is read with the services' schema (docs/services.md).
        assert.deepEqual(summary.refused.map((r) => path.basename(r.file)), ['20-bad.json', '30-service.json', '40-huge.json']);
        assert.match(summary.refused[0].reason, /^bin: /);
        assert.match(summary.refused[1].reason, /^bin: missing \(a service has service, bin, tools and optionally args\)/);
        assert.equal(summary.refused[2].reason, "not valid JSON: number overflow parsing '1e999'");
        assert.equal(summary.on, true);
    }));

test('script_run = false turns the plugins off: none listed, no resources, a call says it is off', () =>
    withSandbox(async (box) => {
        writePlugins(box);
        writeFileSync(box.config, '[tools]\nscript_run = false\n');
        await box.startDaemon();
        const mcp = await box.startMcp();
        const { tools } = await mcp.client.listTools();
        assert.ok(!tools.some((t) => ['flow_run', 'script_run', 'gui_plan'].includes(t.name)));
        assert.equal(mcp.client.getServerCapabilities().resources, undefined);
        const result = await mcp.call('flow_run', { code: 'x' });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /^flow_run is off: config\.toml says \[tools\] script_run = false/);
    }));
