// The desk wire client (runtime/wire.mjs) against a stand-in daemon: frames, one call at a time on
// one connection, refusals, a connection that closes, oversized frames, reconnecting.

import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';

import { FakeDaemon, ok, runtimeModule, tempDir } from './helpers.mjs';

const { WireClient, DeskError, MAX_RESPONSE_BYTES } = await runtimeModule('wire.mjs');

let temp;
let socket;
beforeEach(() => {
    temp = tempDir();
    socket = path.join(temp.dir, 'desk.sock');
});
afterEach(() => temp.remove());

async function withDaemon(answer, fn) {
    const daemon = new FakeDaemon(socket, answer);
    await daemon.listening;
    const client = new WireClient({ socketPath: socket, agentId: 'a1' });
    try {
        await fn(daemon, client);
    } finally {
        client.close();
        await daemon.close();
    }
}

test('a call sends agent_id, tool and args and resolves with the response', async () => {
    await withDaemon(() => ok({ windows: [] }), async (daemon, client) => {
        const response = await client.call('desk_windows', {});
        assert.deepEqual(daemon.requests, [{ agent_id: 'a1', tool: 'desk_windows', args: {} }]);
        assert.deepEqual(response, { text: '{"windows":[]}', is_error: false });
    });
});

test('the agent id defaults to SHUTTLE_AGENT, else ""', () => {
    const saved = process.env.SHUTTLE_AGENT;
    try {
        process.env.SHUTTLE_AGENT = 'run-42';
        assert.equal(new WireClient({ socketPath: socket }).agentId, 'run-42');
        delete process.env.SHUTTLE_AGENT;
        assert.equal(new WireClient({ socketPath: socket }).agentId, '');
    } finally {
        if (saved === undefined)
            delete process.env.SHUTTLE_AGENT;
        else
            process.env.SHUTTLE_AGENT = saved;
    }
});

test('calls made together go one at a time, in order, on one connection', async () => {
    let held = [];
    const daemon = new FakeDaemon(socket, (request) => {
        held.push(request);
        return ok({ n: request.args.n });
    });
    await daemon.listening;
    const client = new WireClient({ socketPath: socket });
    try {
        const results = await Promise.all([1, 2, 3].map((n) => client.call('desk_x', { n })));
        assert.deepEqual(results.map((r) => JSON.parse(r.text).n), [1, 2, 3]);
        assert.deepEqual(held.map((r) => r.args.n), [1, 2, 3]);
        assert.equal(daemon.connections, 1);
    } finally {
        client.close();
        await daemon.close();
    }
});

test('an is_error response rejects with the desk text, the tool, and the connection stays', async () => {
    await withDaemon((r) => (r.tool === 'desk_press' ? { text: 'desk_press: id: no such node', is_error: true } : ok(1)), async (daemon, client) => {
        await assert.rejects(client.call('desk_press', { id: 'x' }), (err) => {
            assert.ok(err instanceof DeskError);
            assert.ok(err instanceof Error);
            assert.equal(err.message, 'desk_press: id: no such node');
            assert.equal(err.deskText, 'desk_press: id: no such node');
            assert.equal(err.tool, 'desk_press');
            return true;
        });
        assert.equal((await client.call('desk_screen')).text, '1');
        assert.equal(daemon.connections, 1);
    });
});

test('a connection that closes rejects every pending call, and a later call reconnects', async () => {
    let closeNext = true;
    await withDaemon(() => {
        if (closeNext) {
            closeNext = false;
            return 'close';
        }
        return ok('again');
    }, async (daemon, client) => {
        const first = client.call('desk_wait', { since: {}, timeout_ms: 10 });
        const queued = client.call('desk_windows');
        await assert.rejects(first, /desk_wait: the desk daemon closed the connection/);
        await assert.rejects(queued, /desk_windows: the desk daemon closed the connection/);
        assert.equal((await client.call('desk_windows')).text, '"again"');
        assert.equal(daemon.connections, 2);
    });
});

test('close() rejects a call in flight', async () => {
    await withDaemon(() => null, async (daemon, client) => {
        const pending = client.call('desk_still', { hold_ms: 100, timeout_ms: 1000 });
        await new Promise((resolve) => setTimeout(resolve, 50));
        client.close('stopped for the test');
        await assert.rejects(pending, /desk_still: stopped for the test/);
    });
});

test('no daemon: the call rejects naming the socket', async () => {
    const client = new WireClient({ socketPath: socket });
    await assert.rejects(client.call('desk_windows'), (err) => {
        assert.match(err.message, /cannot be reached/);
        assert.ok(err.message.includes(socket));
        return true;
    });
});

test('a frame larger than the wire allows is refused and the call rejects', async () => {
    const server = net.createServer((s) => {
        s.on('data', () => {
            const header = Buffer.alloc(4);
            header.writeUInt32BE(MAX_RESPONSE_BYTES + 1, 0);
            s.write(header);
        });
        s.on('error', () => {});
    });
    await new Promise((resolve) => server.listen(socket, resolve));
    const client = new WireClient({ socketPath: socket });
    try {
        await assert.rejects(client.call('desk_shot'), /desk_shot: the desk daemon sent a frame of 67108865 bytes/);
    } finally {
        client.close();
        await new Promise((resolve) => server.close(resolve));
    }
});

test('a response split across many packets is put back together', async () => {
    const big = 'x'.repeat(200000);
    const server = net.createServer((s) => {
        s.on('data', async () => {
            const payload = Buffer.from(JSON.stringify({ text: JSON.stringify(big), is_error: false }));
            const header = Buffer.alloc(4);
            header.writeUInt32BE(payload.length, 0);
            const bytes = Buffer.concat([header, payload]);
            for (let i = 0; i < bytes.length; i += 65536) {
                s.write(bytes.subarray(i, i + 65536));
                await new Promise((resolve) => setImmediate(resolve));
            }
        });
        s.on('error', () => {});
    });
    await new Promise((resolve) => server.listen(socket, resolve));
    const client = new WireClient({ socketPath: socket });
    try {
        assert.equal(JSON.parse((await client.call('desk_shot')).text), big);
    } finally {
        client.close();
        await new Promise((resolve) => server.close(resolve));
    }
});
