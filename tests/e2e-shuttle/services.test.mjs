// Service plugins through `shuttle mcp` and a real daemon, as an agent sees them
// (docs/services.md): a tools.d beside config.toml declaring the test service
// (tests/desk/service/test_service.cpp, built beside the tests). The agent finds the service's
// tools with mcp true after the built-in ones, with their own input schemas, and not the wire-only
// ones; a call answers the service's one response frame; a cancel reaches the service as the end
// of its input, and the server goes on; script_run = false leaves the services listed.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { BUILD_TESTS_DIR, textOf, withSandbox } from './helpers.mjs';

const TEST_SERVICE = process.env.NISH_TEST_SERVICE ||
    path.join(BUILD_TESTS_DIR, 'nish-test-service');

const ECHO_SCHEMA = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

function writeService(box, config = '') {
    const tools = path.join(box.dir, 'tools.d');
    mkdirSync(tools);
    const log = path.join(box.dir, 'service.log');
    writeFileSync(path.join(tools, 'tester.json'), JSON.stringify({
        service: 'tester',
        bin: TEST_SERVICE,
        args: ['--log', log],
        tools: [
            { name: 'svc_echo', description: 'Echoes its arguments.', input_schema: ECHO_SCHEMA },
            { name: 'svc_until_eof', description: 'Answers once its input ends.', input_schema: { type: 'object' } },
            { name: 'svc_frames', description: 'Streams frames.', input_schema: { type: 'object' }, mcp: false },
        ],
    }));
    writeFileSync(box.config, config);
    return log;
}

async function waitFor(check, ms = 5000) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
        if (check())
            return true;
        await new Promise((r) => setTimeout(r, 20));
    }
    return check();
}

test('a service\'s tools are listed after the built-in ones with their own schemas, and a call answers its frame', {
    skip: !process.env.SHUTTLE_BIN && !existsSync(TEST_SERVICE) && 'the test service is not built',
}, () =>
    withSandbox(async (box) => {
        writeService(box);
        await box.startDaemon();
        const mcp = await box.startMcp();
        const { tools } = await mcp.client.listTools();
        const names = tools.map((t) => t.name);
        assert.deepEqual(names.slice(-4), ['script_run', 'gui_plan', 'svc_echo', 'svc_until_eof']);
        assert.ok(!names.includes('svc_frames'), 'a wire-only tool is listed');
        const echo = tools.find((t) => t.name === 'svc_echo');
        assert.equal(echo.description, 'Echoes its arguments.');
        assert.deepEqual(echo.inputSchema, ECHO_SCHEMA);

        const result = await mcp.call('svc_echo', { title: 'groceries' });
        assert.equal(result.isError, false, textOf(result));
        assert.deepEqual(JSON.parse(textOf(result)), { tool: 'svc_echo', agent_id: '', args: { title: 'groceries' } });
        // A wire-only tool is not a tool here.
        await assert.rejects(mcp.call('svc_frames', {}), /Unknown tool: svc_frames/);
        assert.deepEqual(mcp.errors.map(String), []);
    }));

test('a cancel reaches the service as the end of its input; the server goes on', {
    skip: !process.env.SHUTTLE_BIN && !existsSync(TEST_SERVICE) && 'the test service is not built',
}, () =>
    withSandbox(async (box) => {
        const log = writeService(box);
        await box.startDaemon();
        const mcp = await box.startMcp();
        const controller = new AbortController();
        const aborted = mcp.call('svc_until_eof', {}, { signal: controller.signal });
        const request = mcp.sent.filter((m) => m.method === 'tools/call').at(-1);
        assert.ok(await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('call svc_until_eof')),
            'the call did not reach the service');
        assert.ok(!readFileSync(log, 'utf8').includes('eof after'));
        controller.abort();
        await assert.rejects(aborted, (err) => /abort/i.test(String(err.message)));
        // The service read the end of its input and ended the call itself.
        assert.ok(await waitFor(() => readFileSync(log, 'utf8').includes('eof after 0')), readFileSync(log, 'utf8'));
        const next = await mcp.call('svc_echo', { title: 'after' });
        assert.equal(next.isError, false, textOf(next));
        assert.ok(!mcp.received.some((m) => m.id === request.id), 'a reply for the cancelled request arrived');
        assert.deepEqual(mcp.errors.map(String), []);
    }));

test('script_run = false leaves the services listed and reached', {
    skip: !process.env.SHUTTLE_BIN && !existsSync(TEST_SERVICE) && 'the test service is not built',
}, () =>
    withSandbox(async (box) => {
        writeService(box, '[tools]\nscript_run = false\n');
        await box.startDaemon();
        const mcp = await box.startMcp();
        const names = (await mcp.client.listTools()).tools.map((t) => t.name);
        assert.ok(!names.includes('script_run'));
        assert.deepEqual(names.slice(-2), ['svc_echo', 'svc_until_eof']);
        const result = await mcp.call('svc_echo', { title: 'on' });
        assert.equal(result.isError, false, textOf(result));

        const listed = JSON.parse((await box.run(['plugins'])).stdout);
        assert.deepEqual(listed.services.map((s) => s.service), ['tester']);
        assert.deepEqual(listed.services[0].tools.map((t) => [t.name, t.mcp]),
            [['svc_echo', true], ['svc_until_eof', true], ['svc_frames', false]]);
    }));
