// What the desk's tool definitions cost a model: every host sends tools/list's definitions to the
// model on every turn. Counted as o200k tokens (the tokenizer of current OpenAI models, from npm)
// of the definitions as the SDK client lists them.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import { withSandbox } from './helpers.mjs';

// The desk verbs' budget, and script_run's own: the tools a desk adds beside its verbs (script_run
// now; gui_plan and services later) are counted and budgeted one by one. Plugins are the user's own
// tools, written by them and not budgeted here: only the built-in tools are counted and checked.
const BUDGET = 3000;
const SCRIPT_RUN_BUDGET = 200;

test(`tools/list: the desk verbs' definitions cost at most ${BUDGET} o200k tokens, script_run's ${SCRIPT_RUN_BUDGET}`, () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const tools = (await mcp.client.listTools()).tools.filter((t) => t.name.startsWith('desk_') || t.name === 'script_run');
        const verbs = tools.filter((t) => t.name.startsWith('desk_'));
        const tokens = encode(JSON.stringify(verbs)).length;
        const script = encode(JSON.stringify(tools.filter((t) => t.name === 'script_run'))).length;
        const all = encode(JSON.stringify(tools)).length;
        console.log(`shuttle tools/list: ${verbs.length} desk verbs ${tokens} o200k tokens (budget ${BUDGET}), ` +
            `script_run ${script} (budget ${SCRIPT_RUN_BUDGET}), all ${tools.length} tools ${all}`);
        assert.ok(tokens <= BUDGET, `${tokens} o200k tokens, over the budget of ${BUDGET}`);
        assert.ok(script > 0 && script <= SCRIPT_RUN_BUDGET, `script_run: ${script} o200k tokens`);
        for (const tool of tools) {
            assert.ok(tool.description.length >= 20, `${tool.name}: description`);
            for (const [name, arg] of Object.entries(tool.inputSchema.properties ?? {}))
                assert.ok((arg.description ?? '').length > 0, `${tool.name}.${name}: description`);
        }
    }));
