// `shuttle mcp` as a real MCP client sees it: the handshake, the desk_<verb> tools and their
// schemas, calls relayed to a `shuttle daemon --backend mock`, errors (an unknown tool, bad
// arguments, no daemon, a halted desk), and cancellation through the SDK's AbortSignal, watched
// from the daemon's side with a fake daemon that holds the call open.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { FakeDaemon, textOf, withSandbox } from './helpers.mjs';

// The mock backend has no screen; a backend with one answers its size.
function assertScreenAnswer(result) {
    if (result.isError) {
        assert.equal(textOf(result), 'this desk has no screen');
    } else {
        const size = JSON.parse(textOf(result));
        assert.ok(Number.isInteger(size.width) && size.width > 0, textOf(result));
        assert.ok(Number.isInteger(size.height) && size.height > 0, textOf(result));
    }
}

test('initialize: the server is shuttle, with tools', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        assert.equal(mcp.client.getServerVersion().name, 'shuttle');
        assert.match(mcp.client.getServerVersion().version, /^\d+\.\d+\.\d+/);
        assert.deepEqual(mcp.client.getServerCapabilities().tools, { listChanged: false });
        assert.match(mcp.client.getInstructions() ?? '', /shuttle daemon/);
        await mcp.client.ping();
    }));

test('tools/list: one desk_<verb> tool per verb, the model tools, then script_run and gui_plan, each with an object input schema, no safety tools', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const { tools } = await mcp.client.listTools();
        const names = tools.map((t) => t.name);
        assert.ok(names.includes('desk_screen'), names.join(', '));
        assert.equal(new Set(names).size, names.length, 'duplicate tool names');
        assert.deepEqual(names.slice(-2), ['script_run', 'gui_plan']);
        for (const tool of tools) {
            assert.match(tool.name, /^(desk_[a-z_]+|model_(decide|ask|ground)|script_run|gui_plan)$/);
            assert.equal(tool.inputSchema.type, 'object', `${tool.name}: root type`);
            assert.equal(typeof tool.inputSchema.properties, 'object', `${tool.name}: properties`);
            for (const req of tool.inputSchema.required ?? [])
                assert.ok(req in tool.inputSchema.properties, `${tool.name}: required ${req} not a property`);
            assert.ok(tool.description && tool.description.length > 10, `${tool.name}: description`);
        }
        assert.ok(!names.some((n) => n.includes('safety')), 'a safety tool is listed');
    }));

test('callTool desk_screen relays to the daemon and back', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const result = await mcp.call('desk_screen');
        assertScreenAnswer(result);
        assert.equal(result.content[0].type, 'text');
    }));

test('callTool desk_windows answers the mock desktop\'s windows as JSON text', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const result = await mcp.call('desk_windows');
        assert.equal(result.isError, false, textOf(result));
        const { windows } = JSON.parse(textOf(result));
        assert.ok(Array.isArray(windows) && windows.length > 0, textOf(result));
        for (const w of windows) {
            assert.equal(typeof w.id, 'string');
            assert.equal(typeof w.title, 'string');
        }
    }));

test('an unknown tool and the safety verbs are protocol errors', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        for (const name of ['desk_no_such_verb', 'safety_stop', 'safety_resume'])
            await assert.rejects(mcp.call(name), (err) => err.code === -32602 && err.message.includes(`Unknown tool: ${name}`));
        // The server goes on serving.
        assertScreenAnswer(await mcp.call('desk_screen'));
    }));

test('bad arguments: isError naming the argument', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const result = await mcp.call('desk_screen', { bogus: 1 });
        assert.equal(result.isError, true);
        assert.match(textOf(result), /bogus/);
    }));

test('no daemon: a clear tool error, at once', () =>
    withSandbox(async (box) => {
        const mcp = await box.startMcp();
        const start = Date.now();
        const result = await mcp.call('desk_screen');
        assert.ok(Date.now() - start < 3000, 'the call took too long');
        assert.equal(result.isError, true);
        assert.ok(textOf(result).includes(`no shuttle daemon answers at ${box.socket}`), textOf(result));
        assert.match(textOf(result), /start it with `shuttle daemon`/);
        // Once a daemon starts, the same server reaches it: a connection per call.
        await box.startDaemon();
        assertScreenAnswer(await mcp.call('desk_screen'));
    }));

test('a halt from `shuttle stop` answers MCP calls until `shuttle resume`', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const stop = await box.run(['stop']);
        assert.equal(stop.code, 0, stop.stderr);
        assert.deepEqual(JSON.parse(stop.stdout), { halted: true });
        const halted = await mcp.call('desk_screen');
        assert.equal(halted.isError, true);
        assert.match(textOf(halted), /shuttle resume/);
        const resume = await box.run(['resume']);
        assert.deepEqual(JSON.parse(resume.stdout), { halted: false });
        assertScreenAnswer(await mcp.call('desk_screen'));
    }));

test('cancel: a running call gets no result, its daemon connection closes, the server goes on', () =>
    withSandbox(async (box) => {
        const fake = new FakeDaemon(box.socket);
        await fake.listening;
        try {
            const mcp = await box.startMcp();
            const controller = new AbortController();
            const aborted = mcp.call('desk_screen', {}, { signal: controller.signal });
            await fake.until(() => fake.requests.length === 1, 5000, 'the call reaching the daemon');
            assert.equal(fake.requests[0].tool, 'desk_screen');
            assert.deepEqual(fake.requests[0].args, {});
            const request = mcp.sent.filter((m) => m.method === 'tools/call').at(-1);

            controller.abort();
            await assert.rejects(aborted, (err) => /abort/i.test(String(err.message)));
            const cancel = mcp.sent.find((m) => m.method === 'notifications/cancelled');
            assert.equal(cancel?.params?.requestId, request.id);
            // The front closes its connection; that is the daemon's cancel.
            await fake.until(() => fake.ended === 1, 3000, 'the daemon connection closing');

            fake.reply = { text: '{"width":640,"height":480}', is_error: false };
            const next = await mcp.call('desk_screen');
            assert.equal(next.isError, false);
            assert.deepEqual(JSON.parse(textOf(next)), { width: 640, height: 480 });
            assert.ok(!mcp.received.some((m) => m.id === request.id), 'a reply for the cancelled request arrived');
            assert.equal(fake.requests.length, 2);
            assert.deepEqual(mcp.errors.map(String), []);
        } finally {
            await fake.close();
        }
    }));

test('cancel of a running desk_wait on the real daemon: no result, the next call at once', () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const since = JSON.parse(textOf(await mcp.call('desk_windows')));
        const controller = new AbortController();
        // The mock desktop does not change by itself: this wait would run its whole 5 s.
        const aborted = mcp.call('desk_wait', { since, timeout_ms: 5000 }, { signal: controller.signal });
        const request = mcp.sent.filter((m) => m.method === 'tools/call').at(-1);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const start = Date.now();
        controller.abort();
        await assert.rejects(aborted, (err) => /abort/i.test(String(err.message)));
        // One request at a time: had the wait not been cancelled, this call would queue behind it.
        const next = await mcp.call('desk_wait', { since, timeout_ms: 0 });
        assert.ok(Date.now() - start < 2000, `the next call took ${Date.now() - start} ms`);
        assert.equal(next.isError, false, textOf(next));
        assert.ok(Array.isArray(JSON.parse(textOf(next)).windows), textOf(next));
        assert.ok(!mcp.received.some((m) => m.id === request.id), 'a reply for the cancelled request arrived');
        assert.deepEqual(mcp.errors.map(String), []);
    }));

test('an image in the answer becomes an image/png block', () =>
    withSandbox(async (box) => {
        const fake = new FakeDaemon(box.socket);
        await fake.listening;
        try {
            fake.reply = { text: '{"width":1,"height":1}', is_error: false, image_b64: 'iVBORw0KGgo=' };
            const mcp = await box.startMcp();
            const result = await mcp.call('desk_screen');
            assert.equal(result.isError, false);
            assert.deepEqual(result.content, [
                { type: 'text', text: '{"width":1,"height":1}' },
                { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
            ]);
        } finally {
            await fake.close();
        }
    }));
