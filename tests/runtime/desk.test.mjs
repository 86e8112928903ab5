// The desk object (runtime/desk.mjs): one function per verb from the generated declarations, the
// request frames its calls produce, and how it answers (parsed JSON, pictures, refusals).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { FakeDaemon, ok, runtimeModule, tempDir } from './helpers.mjs';

const { WireClient } = await runtimeModule('wire.mjs');
const { makeDesk, argumentsOf, VERBS } = await runtimeModule('desk.mjs');

// A desk on a stand-in daemon that answers `answer(request)`.
async function withDesk(answer, fn) {
    const temp = tempDir();
    const socket = path.join(temp.dir, 'desk.sock');
    const daemon = new FakeDaemon(socket, answer);
    await daemon.listening;
    const wire = new WireClient({ socketPath: socket, agentId: 'agent-9' });
    try {
        await fn(makeDesk(wire), daemon);
    } finally {
        wire.close();
        await daemon.close();
        temp.remove();
    }
}

const verb = (name) => VERBS.find((v) => v.verb === name);

test('every generated verb is a function named by the verb, and desk.call is there', async () => {
    await withDesk(undefined, async (desk) => {
        assert.ok(VERBS.length >= 10);
        for (const v of VERBS) {
            assert.equal(v.tool, `desk_${v.verb}`);
            assert.equal(typeof desk[v.verb], 'function', v.verb);
            assert.equal(desk[v.verb].name, v.verb);
        }
        assert.equal(typeof desk.call, 'function');
        assert.ok(Object.isFrozen(desk));
    });
});

test('the frames of press, windows and snapshot', async () => {
    await withDesk(() => ok({}), async (desk, daemon) => {
        await desk.press('s3:17');
        await desk.windows();
        await desk.snapshot({ window: 'w' });
        assert.deepEqual(daemon.requests, [
            { agent_id: 'agent-9', tool: 'desk_press', args: { id: 's3:17' } },
            { agent_id: 'agent-9', tool: 'desk_windows', args: {} },
            { agent_id: 'agent-9', tool: 'desk_snapshot', args: { window: 'w' } },
        ]);
    });
});

test('positional values fill the required arguments in order, then one object of further ones', () => {
    assert.deepEqual(argumentsOf(verb('press'), ['s1:2']), { id: 's1:2' });
    assert.deepEqual(argumentsOf(verb('act'), ['s1:2', 'focus']), { id: 's1:2', action: 'focus' });
    assert.deepEqual(argumentsOf(verb('find'), ['check', { role: 'push_button' }]), { name: 'check', role: 'push_button' });
    assert.deepEqual(argumentsOf(verb('find'), [{ name: 'check', window: 'Editor' }]), { name: 'check', window: 'Editor' });
    const since = { windows: [] };
    assert.deepEqual(argumentsOf(verb('wait'), [since, 500]), { since, timeout_ms: 500 });
    assert.deepEqual(argumentsOf(verb('snapshot'), []), {});
    assert.throws(() => argumentsOf(verb('press'), ['a', 'b']), /desk.press takes \(id\) positionally/);
    assert.throws(() => argumentsOf(verb('windows'), ['x']), /desk.windows takes no positional arguments/);
});

test('the arguments object is copied, not sent by reference', () => {
    const args = { window: 'w' };
    const sent = argumentsOf(verb('snapshot'), [args]);
    assert.notEqual(sent, args);
    assert.deepEqual(sent, args);
});

test('a result is the parsed text; a picture comes as image_b64', async () => {
    await withDesk((r) => (r.tool === 'desk_shot' ? ok({ width: 2, height: 1 }, { image_b64: 'iVBOR' }) : ok({ windows: [{ id: 'w1' }] })), async (desk) => {
        assert.deepEqual(await desk.windows(), { windows: [{ id: 'w1' }] });
        assert.deepEqual(await desk.shot(), { width: 2, height: 1, image_b64: 'iVBOR' });
    });
});

test('a refusal rejects with the desk text and the tool', async () => {
    await withDesk(() => ({ text: 'desk_press: nonesuch: unknown argument', is_error: true }), async (desk) => {
        await assert.rejects(desk.press({ nonesuch: 1 }), (err) => {
            assert.equal(err.message, 'desk_press: nonesuch: unknown argument');
            assert.equal(err.deskText, 'desk_press: nonesuch: unknown argument');
            assert.equal(err.tool, 'desk_press');
            return true;
        });
    });
});

test('desk.call sends the raw tool name and answers JSON, or the text when it is not JSON', async () => {
    await withDesk((r) => (r.tool === 'desk_screen' ? ok({ width: 800 }) : { text: 'plain words', is_error: false }), async (desk, daemon) => {
        assert.deepEqual(await desk.call('desk_screen'), { width: 800 });
        assert.equal(await desk.call('other_tool', { a: 1 }), 'plain words');
        assert.deepEqual(daemon.requests[1], { agent_id: 'agent-9', tool: 'other_tool', args: { a: 1 } });
        await assert.rejects(desk.call(), TypeError);
    });
});

test('desk.look with a question sends the picture to model_decide with the image, within 5000 ms', async () => {
    const answer = (req) => {
        if (req.tool === 'desk_look')
            return { text: JSON.stringify({ session: 's', screenshot: { width: 2, height: 1 } }), is_error: false,
                image_b64: '/9j/AA==', image_mime: 'image/jpeg' };
        return ok({ answers: { answer: { probability: 0.93 } }, served: { model: 'm', build: null, id: null },
            usage: { model: 'm', input_tokens: 5, output_tokens: 1, cached_tokens: 0 } });
    };
    await withDesk(answer, async (desk, daemon) => {
        const plain = await desk.look({ max_edge: 512 });
        assert.equal(plain.image_mime, 'image/jpeg');
        assert.equal(plain.answer, undefined);
        const asked = await desk.look({ question: 'Is a dialog open?', max_edge: 512 });
        assert.equal(asked.answer, 0.93);
        assert.equal(asked.image_b64, '/9j/AA==');
        const [, look, decide] = daemon.requests;
        assert.deepEqual(look.args, { max_edge: 512 }, 'the question is not the verb\'s argument');
        assert.equal(decide.tool, 'model_decide');
        assert.equal(decide.args.timeout_ms, 5000);
        assert.equal(decide.args.image, true);
        assert.equal(decide.args.state[1].image_url.url, 'data:image/jpeg;base64,/9j/AA==');
        assert.equal(decide.args.questions.answer.instructions, 'Is a dialog open?');
        await assert.rejects(desk.look({ question: '' }), /question must be/);
        assert.equal(desk.look.name, 'look');
    });
});
