// What the desk's tool definitions cost a model: every host sends tools/list's definitions to the
// model on every turn. Counted as o200k tokens (the tokenizer of current OpenAI models, from npm)
// of the definitions as the SDK client lists them.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import { withSandbox } from './helpers.mjs';

// The desk verbs' budget, the vision verbs' (computer_*, look, title_at: a vision agent's set, with
// computer_act's many action fields), and each built-in tool's own beside them (the model tools,
// script_run, gui_plan). Plugins and services are the user's own tools, written by them and not
// budgeted here: only the built-in tools are counted and checked.
const BUDGET = 3000;
const VISION = new Set(['desk_computer_state', 'desk_computer_act', 'desk_computer_end', 'desk_computer_scale', 'desk_look',
    'desk_title_at']);
const VISION_BUDGET = 1600;
const BUILT_IN_BUDGETS = { script_run: 200, gui_plan: 250, model_decide: 220, model_ask: 140, model_ground: 180 };

test(`tools/list: the desk verbs' definitions cost at most ${BUDGET} o200k tokens, each built-in tool its own budget`, () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const tools = (await mcp.client.listTools()).tools.filter((t) => t.name.startsWith('desk_') || t.name in BUILT_IN_BUDGETS);
        const verbs = tools.filter((t) => t.name.startsWith('desk_') && !VISION.has(t.name));
        const tokens = encode(JSON.stringify(verbs)).length;
        const vision = tools.filter((t) => VISION.has(t.name));
        const visionTokens = encode(JSON.stringify(vision)).length;
        const own = Object.fromEntries(Object.keys(BUILT_IN_BUDGETS).map((name) =>
            [name, encode(JSON.stringify(tools.filter((t) => t.name === name))).length]));
        const all = encode(JSON.stringify(tools)).length;
        console.log(`shuttle tools/list: ${verbs.length} desk verbs ${tokens} o200k tokens (budget ${BUDGET}), ` +
            `${vision.length} vision verbs ${visionTokens} (budget ${VISION_BUDGET}), ` +
            Object.entries(own).map(([name, n]) => `${name} ${n} (budget ${BUILT_IN_BUDGETS[name]})`).join(', ') +
            `, all ${tools.length} tools ${all}`);
        assert.ok(tokens <= BUDGET, `${tokens} o200k tokens, over the budget of ${BUDGET}`);
        assert.equal(vision.length, VISION.size);
        assert.ok(visionTokens <= VISION_BUDGET, `vision verbs: ${visionTokens} o200k tokens, over the budget of ${VISION_BUDGET}`);
        for (const [name, n] of Object.entries(own))
            assert.ok(n > 0 && n <= BUILT_IN_BUDGETS[name], `${name}: ${n} o200k tokens, budget ${BUILT_IN_BUDGETS[name]}`);
        for (const tool of tools) {
            assert.ok(tool.description.length >= 20, `${tool.name}: description`);
            for (const [name, arg] of Object.entries(tool.inputSchema.properties ?? {}))
                assert.ok((arg.description ?? '').length > 0, `${tool.name}.${name}: description`);
        }
    }));
