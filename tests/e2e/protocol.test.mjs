// The MCP surface as a real client sees it: handshake, tools/list, calls before a session,
// cancellation through the SDK's AbortSignal, and raw protocol faults on the wire.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';

import Ajv2020 from 'ajv/dist/2020.js';

import { CONTRACT_TOOLS, DRIVER_ARGS, DRIVER_BIN, driverEnv, withDriver } from './helpers.mjs';

test('initialize: serverInfo, negotiated version, capabilities, instructions', () =>
    withDriver(async (d) => {
        const info = d.client.getServerVersion();
        assert.equal(info.name, 'nish-driver');
        assert.match(info.version, /^\d+\.\d+\.\d+/);
        // The SDK asks for the newest version it knows; the server supports it and echoes it.
        assert.equal(d.protocolVersion, '2025-11-25');
        assert.deepEqual(d.client.getServerCapabilities().tools, { listChanged: false });
        assert.match(d.client.getInstructions() ?? '', /start_session/);
        await d.client.ping();
    }));

test('tools/list: the 24 contract tools with conforming input schemas', () =>
    withDriver(async (d) => {
        const { tools } = await d.client.listTools();
        const names = tools.map((t) => t.name);
        assert.equal(new Set(names).size, names.length, 'duplicate tool names');
        assert.deepEqual([...names].sort(), [...CONTRACT_TOOLS].sort());

        // MCP 2025-11-25 schemas default to 2020-12; each must at least compile there.
        const ajv = new Ajv2020({ strict: false });
        for (const tool of tools) {
            const schema = tool.inputSchema;
            const json = JSON.stringify(schema);
            assert.equal(schema.type, 'object', `${tool.name}: root type`);
            assert.equal(typeof schema.properties, 'object', `${tool.name}: properties`);
            assert.ok(!json.includes('"$ref"'), `${tool.name}: $ref in the input schema`);
            for (const k of ['anyOf', 'oneOf', 'allOf', 'not'])
                assert.ok(!(k in schema), `${tool.name}: root combinator ${k}`);
            assert.ok(Buffer.byteLength(json) < 12000, `${tool.name}: input schema ${json.length} bytes`);
            for (const req of schema.required ?? [])
                assert.ok(req in schema.properties, `${tool.name}: required ${req} not a property`);
            assert.doesNotThrow(() => ajv.compile(schema), `${tool.name}: schema does not compile`);

            assert.ok(tool.description && tool.description.length > 10, `${tool.name}: description`);
            const a = tool.annotations;
            assert.ok(a, `${tool.name}: annotations`);
            assert.equal(typeof a.readOnlyHint, 'boolean', `${tool.name}: readOnlyHint`);
            // destructiveHint means something only for a tool that does not only read.
            if (!a.readOnlyHint)
                assert.equal(typeof a.destructiveHint, 'boolean', `${tool.name}: destructiveHint`);
        }
        const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
        for (const name of ['list_windows', 'get_window_state', 'health_report'])
            assert.equal(byName[name].annotations.readOnlyHint, true, `${name} reads only`);
        for (const name of ['click', 'set_value', 'type_text', 'press_key'])
            assert.equal(byName[name].annotations.readOnlyHint, false, `${name} acts`);
        assert.equal(byName.click.annotations.destructiveHint, true);
        assert.deepEqual(byName.click.inputSchema.required, ['element_token']);
    }));

test('health_report works without a session', () =>
    withDriver(async (d) => {
        const { data, text } = await d.ok('health_report', {});
        assert.equal(data.backend, 'mock');
        assert.ok(Array.isArray(data.capabilities) && data.capabilities.length > 0);
        const read = data.capabilities.find((c) => c.name === 'read_tree');
        assert.equal(read?.status, 'available');
        assert.match(text, /backend mock/);
    }));

test('a call before start_session is not_consented', () =>
    withDriver(async (d) => {
        for (const [name, args] of [['list_windows', {}], ['get_window_state', { app: 'Chatter' }]]) {
            const { error, text } = await d.fails(name, args, 'not_consented');
            assert.ok(text.startsWith('not_consented: '));
            assert.ok(error.suggestion.includes('start_session'));
        }
        // Nothing was started by the refused calls.
        const state = await d.ok('get_session_state', {});
        assert.equal(state.data.active, false);
        assert.equal(state.data.session, null);
    }));

test('unknown tool and bad arguments', () =>
    withDriver(async (d) => {
        await assert.rejects(d.call('no_such_tool', {}), (err) => err.code === -32602 && /Unknown tool/.test(err.message));
        await d.ok('start_session', {});
        await d.fails('get_window_state', { app: 'Chatter', max_elements: 0 }, 'invalid_arguments');
        await d.fails('click', {}, 'invalid_arguments');
        await d.fails('click', { element_token: 'nonsense' }, 'invalid_arguments');
        const stale = await d.fails('click', { element_token: 's99:1' }, 'stale_element_token');
        assert.equal(stale.error.disposition.retry, 'after_refresh');
        await d.fails('get_window_state', { app: 'No such app' }, 'window_target_not_found');
        const none = await d.fails('get_window_state', {}, 'ambiguous_window_target');
        assert.equal(none.error.candidates.length, 5);
    }));

test('cancel: an aborted call rejects at once and the server keeps serving', () =>
    withDriver(async (d) => {
        const heavy = { app: 'Chatter', max_elements: 5000 };
        // Two heavy reads ahead keep the worker busy, so the aborted call is queued or running
        // when its notifications/cancelled arrives.
        const first = d.call('get_window_state', heavy);
        const second = d.call('get_window_state', heavy);
        const controller = new AbortController();
        const aborted = d.call('get_window_state', heavy, { signal: controller.signal });
        const calls = d.sent.filter((m) => m.method === 'tools/call' && m.params.name === 'get_window_state');
        const request = calls[calls.length - 1];
        assert.equal(calls.length, 3, 'the aborted request was written before the abort');
        controller.abort();
        await assert.rejects(aborted, (err) => /abort/i.test(String(err.message)));

        const cancel = d.sent.find((m) => m.method === 'notifications/cancelled');
        assert.equal(cancel?.params?.requestId, request.id);

        // The calls ahead finish normally.
        for (const r of [await first, await second]) {
            assert.equal(r.isError, false);
            assert.ok(r.structuredContent.element_count > 4000);
            assert.equal(r.structuredContent.element_count, r.structuredContent.total_elements);
        }
        // The server answers the next call, and never answered the cancelled one: it was behind
        // two reads, so it was dropped from the queue before it ran.
        const after = await d.ok('list_windows', {});
        assert.equal(after.data.count, 5);
        for (const ahead of calls.slice(0, 2))
            assert.ok(d.received.some((m) => m.id === ahead.id && m.result), 'the recorder saw the replies ahead');
        assert.ok(!d.received.some((m) => m.id === request.id), 'a reply for the cancelled request arrived');
        assert.deepEqual(d.clientErrors.map(String), []);
    }, { session: true }));

// Writes `chunks` to a fresh driver's stdin, closes it, and returns the parsed stdout lines
// and the exit code (the server answers what it read, then exits at end of input).
function rawExchange(chunks) {
    return new Promise((resolve, reject) => {
        const child = spawn(DRIVER_BIN, DRIVER_ARGS, {
            env: driverEnv(''),
            stdio: ['pipe', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`driver hung; stderr: ${err}`)); }, 30000);
        child.stdout.on('data', (b) => { out += b; });
        child.stderr.on('data', (b) => { err += b; });
        child.on('error', (e) => { clearTimeout(timer); reject(e); });
        child.on('close', (code) => {
            clearTimeout(timer);
            try {
                const lines = out.split('\n').filter((l) => l.length > 0).map((l) => JSON.parse(l));
                resolve({ lines, code, stderr: err });
            } catch (e) {
                reject(new Error(`stdout is not JSON lines: ${e.message}\n${out.slice(0, 400)}`));
            }
        });
        for (const c of chunks)
            child.stdin.write(c);
        child.stdin.end();
    });
}

test('malformed input: garbage and a 50 MB line get errors, then a ping is answered', async () => {
    const huge = '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + 'a'.repeat(50 * 1024 * 1024) + '"}}\n';
    const { lines, code, stderr } = await rawExchange([
        'this is not json\n',
        huge,
        '{"jsonrpc":"2.0","id":7,"method":"ping"}\n',
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(lines.length, 3, JSON.stringify(lines));
    const [garbage, tooLong, ping] = lines;
    assert.equal(garbage.jsonrpc, '2.0');
    assert.equal(garbage.id, null);
    assert.equal(garbage.error.code, -32700);
    assert.ok(!garbage.error.message.includes('this is not'), 'the parse error quotes the input');
    assert.equal(tooLong.id, null);
    assert.equal(tooLong.error.code, -32600);
    assert.match(tooLong.error.message, /\d+-byte limit|\d+ bytes/);
    assert.deepEqual(ping, { jsonrpc: '2.0', id: 7, result: {} });
});

test('raw protocol faults keep their ids; older protocol versions are echoed', async () => {
    const { lines, code } = await rawExchange([
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}\n',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
        '[{"jsonrpc":"2.0","id":2,"method":"ping"}]\n',
        '{"jsonrpc":"1.0","id":3,"method":"ping"}\n',
        '{"jsonrpc":"2.0","id":4,"method":"no/such/method"}\n',
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"no_such_tool"}}\n',
        '{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"health_report","arguments":{}}}\n',
    ]);
    assert.equal(code, 0);
    const byId = new Map(lines.map((l) => [l.id, l]));
    assert.equal(byId.get(1).result.protocolVersion, '2025-06-18');
    assert.equal(byId.get(1).result.serverInfo.name, 'nish-driver');
    const batch = lines.find((l) => l.error?.code === -32600 && l.id !== 3);
    assert.ok(batch, `no -32600 for the batch: ${JSON.stringify(lines)}`);
    assert.equal(byId.get(3).error.code, -32600);
    assert.equal(byId.get(4).error.code, -32601);
    assert.equal(byId.get(5).error.code, -32602);
    assert.equal(byId.get(6).result.isError, false);
    assert.equal(byId.get(6).result.structuredContent.backend, 'mock');
    assert.equal(lines.length, 6, 'the notification was answered');
});
