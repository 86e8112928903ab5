// Both programs through both generations of the official client: the 2025-11-25 SDK opens with
// initialize, the 2026-07-28 client sends the _meta envelope on every request (pinned, or after a
// server/discover probe). Whatever the era, the same tools with the same schemas, the same
// answers, progress for a call that asked for it, and cancellation.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { CLIENT_KINDS, LEGACY, MODERN, PROGRAMS, textOf, withConnection } from './clients.mjs';

// What each program is asked in every era: a quick call, and one long enough to report progress.
const CALLS = {
    'nish-driver': {
        quick: { name: 'health_report', args: {}, check: (r) => assert.match(textOf(r), /backend mock: ready/) },
        async long(h, onprogress) {
            const session = await h.call('start_session', { apps: ['Settings'], input: 'takeover' });
            assert.equal(session.isError, false, textOf(session));
            return h.call('move_cursor', { app: 'Settings', x: 300, y: 200, duration_ms: 800, delivery_mode: 'foreground' },
                { onprogress });
        },
    },
    'shuttle mcp': {
        quick: { name: 'desk_windows', args: {}, check: (r) => assert.ok(Array.isArray(JSON.parse(textOf(r)).windows)) },
        async long(h, onprogress) {
            const since = JSON.parse(textOf(await h.call('desk_windows')));
            // The mock desktop does not change by itself: the wait runs its whole second.
            return h.call('desk_wait', { since, timeout_ms: 1000 }, { onprogress });
        },
    },
};

const listings = new Map(); // program → the tool list the legacy client saw

for (const program of PROGRAMS) {
    for (const kind of CLIENT_KINDS) {
        test(`${program.name} through ${kind.name}: the era, the tools, a call`, () =>
            withConnection(program, kind, async (h) => {
                assert.equal(h.version(), kind.era);
                const info = h.client.getServerVersion();
                assert.equal(info.name, program.name === 'nish-driver' ? 'nish-driver' : 'shuttle');
                assert.deepEqual(h.client.getServerCapabilities().tools, { listChanged: false });

                const { tools } = await h.client.listTools();
                assert.ok(tools.length > 10, `${tools.length} tools`);
                // The same list, in the same order, whatever the era.
                if (kind.era === LEGACY)
                    listings.set(program.name, tools);
                else if (listings.has(program.name))
                    assert.deepEqual(tools, listings.get(program.name));

                const { name, args, check } = CALLS[program.name].quick;
                const result = await h.call(name, args);
                assert.equal(result.isError, false, textOf(result));
                check(result);
                // A tool failure is a result in both eras, never a protocol error.
                const failed = await h.call(name, { ...args, no_such_argument: 1, window_id: 'not a number' });
                assert.equal(typeof failed.isError, 'boolean');
                await assert.rejects(h.call('no_such_tool'), /no_such_tool/);
            }));

        test(`${program.name} through ${kind.name}: progress while a long call runs`, () =>
            withConnection(program, kind, async (h) => {
                const seen = [];
                const result = await CALLS[program.name].long(h, (p) => seen.push(p));
                assert.equal(result.isError, false, textOf(result));
                assert.ok(seen.length >= 3, `${seen.length} progress notifications: ${JSON.stringify(seen)}`);
                for (let i = 1; i < seen.length; i++)
                    assert.ok(seen[i].progress > seen[i - 1].progress, `progress went back: ${JSON.stringify(seen)}`);
                assert.ok(seen.every((p) => typeof p.message === 'string' && p.message.length > 0));
                assert.ok(seen.some((p) => p.total > 0 && p.progress <= p.total), JSON.stringify(seen));
            }));
    }
}

test('shuttle mcp through client 2.x: a cancelled desk_wait gets no result and the next call runs at once', () =>
    withConnection(PROGRAMS[1], CLIENT_KINDS[1], async (h) => {
        assert.equal(h.version(), MODERN);
        const since = JSON.parse(textOf(await h.call('desk_windows')));
        const controller = new AbortController();
        const aborted = h.call('desk_wait', { since, timeout_ms: 5000 }, { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 300));
        const start = Date.now();
        controller.abort();
        await assert.rejects(aborted, (err) => /abort|cancel/i.test(String(err.message)));
        // One request at a time: had the wait not been cancelled, this call would queue behind it.
        const next = await h.call('desk_wait', { since, timeout_ms: 0 });
        assert.ok(Date.now() - start < 2000, `the next call took ${Date.now() - start} ms`);
        assert.equal(next.isError, false, textOf(next));
    }));

test('nish-driver through client 2.x: the session is the connection\'s, named by the envelope\'s clientInfo', () =>
    withConnection(PROGRAMS[0], CLIENT_KINDS[1], async (h) => {
        const started = await h.call('start_session', { apps: ['Settings'] });
        assert.equal(started.isError, false, textOf(started));
        assert.match(started.structuredContent.session, /^mcp:era-e2e:\d+$/);
        const state = await h.call('get_session_state');
        assert.equal(state.structuredContent.session, started.structuredContent.session);
    }));
