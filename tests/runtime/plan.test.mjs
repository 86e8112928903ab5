// gui_plan's executor (runtime/plan.mjs) against a stand-in desk: references between steps,
// expectations, retries, the plan's result, and a plan refused whole before its first step, naming
// the step and the field.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { checkPlan, main, runPlan, unmet, valueAt } from '../../runtime/plan.mjs';

// A desk whose check box becomes checked on the second read after a press.
function fakeDesk() {
    const calls = [];
    let reads = 0;
    let pressed = false;
    return {
        calls,
        async call(tool, args) {
            calls.push([tool, args]);
            switch (tool) {
            case 'desk_find': return { nodes: [{ id: 's1:5', name: 'Check' }, { id: 's1:6', name: 'Other' }] };
            case 'desk_press': pressed = true; return { pressed: args.id };
            case 'desk_read': return { states: pressed && ++reads >= 2 ? ['checked'] : [] };
            case 'desk_windows': return { windows: [{ title: 'A' }, { title: 'Save as' }] };
            default: throw new Error(`${tool}: refused by the stand-in`);
            }
        },
    };
}

const PRESS_AND_CHECK = {
    steps: [
        { id: 'box', do: 'find', args: { name: 'Check' }, expect: { path: 'nodes', count_at_least: 1 } },
        { do: 'press', args: { id: '$box.nodes[0].id' } },
        { id: 'after', do: 'read', args: { id: '$box.nodes[0].id' }, expect: { path: 'states', contains: 'checked' },
          retry: { times: 3, delay_ms: 10 } },
    ],
    result: { id: '$box.nodes[0].id', states: '$after.states', names: '$box.nodes[*].name', dollar: '$$5' },
};

test('steps pass results on, retries wait for the expectation, the result is built from references', async () => {
    const desk = fakeDesk();
    const answer = await runPlan(PRESS_AND_CHECK, desk);
    assert.deepEqual(answer, { ok: true, result: { id: 's1:5', states: ['checked'], names: ['Check', 'Other'], dollar: '$5' }, steps: 3 });
    assert.deepEqual(desk.calls.map(([tool]) => tool), ['desk_find', 'desk_press', 'desk_read', 'desk_read']);
    assert.deepEqual(desk.calls[1][1], { id: 's1:5' });
});

test('without a result the plan answers every named step', async () => {
    const answer = await runPlan({ steps: [{ id: 'w', do: 'windows' }, { do: 'sleep', args: { ms: 1 } }] }, fakeDesk());
    assert.deepEqual(answer, { ok: true, result: { w: { windows: [{ title: 'A' }, { title: 'Save as' }] } }, steps: 2 });
});

test('a step that fails ends the plan, naming the step, the reason and the attempts', async () => {
    const desk = fakeDesk();
    const unmetPlan = await runPlan({ steps: [
        { id: 'w', do: 'windows', expect: { path: 'windows[*].title', contains: 'Open' }, retry: { times: 2, delay_ms: 1 } },
        { do: 'press', args: { id: 'x' } },
    ] }, desk);
    assert.equal(unmetPlan.ok, false);
    assert.deepEqual({ ...unmetPlan.failed, reason: undefined }, { step: 1, id: 'w', do: 'windows', reason: undefined, attempts: 3 });
    assert.match(unmetPlan.failed.reason, /windows\[\*\]\.title \(\["A","Save as"\]\) does not contain "Open"/);
    assert.equal(desk.calls.length, 3, 'the press after the failed step never ran');
    const refused = await runPlan({ steps: [{ do: 'shot' }] }, desk);
    assert.equal(refused.failed.reason, 'desk_shot: refused by the stand-in');
});

test('a plan is checked whole before its first step: each mistake names its step and field', async () => {
    const cases = [
        [null, /must be an object/],
        [{ steps: [] }, /1 to 100 steps/],
        [{ steps: [{ do: 'windows' }], extra: 1 }, /unknown field "extra"/],
        [{ steps: [{ do: 'fly' }] }, /step 1: do must be a desk verb/],
        [{ steps: [{ do: 'windows' }, { do: 'press' }] }, /step 2: press needs id/],
        [{ steps: [{ do: 'find', args: { name: 'a', colour: 'red' } }] }, /step 1: find has no argument colour/],
        [{ steps: [{ do: 'press', args: { id: '$later.id' } }, { id: 'later', do: 'windows' }] }, /step 1: \$later\.id names no earlier step/],
        [{ steps: [{ do: 'press', args: { id: '$bad ref' } }] }, /is not a reference/],
        [{ steps: [{ do: 'windows', expect: { path: 'a..b' } }] }, /expect\.path must be a path/],
        [{ steps: [{ do: 'windows', expect: { matches: '(' } }] }, /not a regular expression/],
        [{ steps: [{ do: 'windows', retry: { times: 99 } }] }, /retry is \{times: 0 to 20/],
        [{ steps: [{ id: 'a', do: 'windows' }, { id: 'a', do: 'windows' }] }, /step 2 \(a\): id must be a new name/],
        [{ steps: [{ do: 'sleep', args: { ms: 99999 } }] }, /sleep takes args \{ms\}/],
        [{ steps: [{ do: 'windows', when: 1 }] }, /unknown field "when"/],
        [{ steps: [{ do: 'windows' }], result: '$nowhere' }, /result: \$nowhere names no step/],
    ];
    for (const [plan, why] of cases) {
        assert.throws(() => checkPlan(plan), why, JSON.stringify(plan));
        const desk = fakeDesk();
        globalThis.desk = desk;
        const answer = await main({ plan });
        assert.equal(answer.ok, false);
        assert.match(answer.invalid.reason, why);
        assert.equal(desk.calls.length, 0, 'a step ran before the plan was refused');
    }
    delete globalThis.desk;
});

test('paths and expectations', () => {
    const value = { nodes: [{ id: 'a', states: ['x'] }, { id: 'b', states: [] }] };
    assert.deepEqual(valueAt(value, ['nodes', '*', 'id']), ['a', 'b']);
    assert.equal(valueAt(value, ['nodes', 5, 'id']), undefined);
    assert.equal(unmet(value, { path: 'nodes[0].id', equals: 'a' }), null);
    assert.match(unmet(value, { path: 'nodes[1].id', equals: 'a' }), /nodes\[1\]\.id is "b", not "a"/);
    assert.equal(unmet(value, { path: 'nodes[9]', exists: false }), null);
    assert.equal(unmet(value, { path: 'nodes[0].id', matches: '^[a-z]$' }), null);
    assert.match(unmet(value, { path: 'nodes', count_at_least: 3 }), /has 2 items, fewer than 3/);
});
