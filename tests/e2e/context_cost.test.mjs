// What the driver's tool definitions cost a model: every host sends tools/list's definitions to
// the model on every turn, so they are paid for again and again. Counted as o200k tokens (the
// tokenizer of current OpenAI models, from npm) of the definitions as the SDK client lists them.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import { withDriver } from './helpers.mjs';

// Playwright MCP's 25 tools cost 4,396; these 24 cost 4,549 before they were cut to this.
const BUDGET = 3500;

test(`tools/list: the 24 tool definitions cost at most ${BUDGET} o200k tokens`, () =>
    withDriver(async (d) => {
        const { tools } = await d.client.listTools();
        const tokens = encode(JSON.stringify(tools)).length;
        console.log(`nish-driver tools/list: ${tools.length} tools, ${tokens} o200k tokens (budget ${BUDGET})`);
        assert.ok(tokens <= BUDGET, `${tokens} o200k tokens, over the budget of ${BUDGET}`);
        // What a model needs to call them right stays: each says what it is for, and each
        // argument says what it takes.
        for (const tool of tools) {
            assert.ok(tool.description.length >= 20, `${tool.name}: description`);
            for (const [name, arg] of Object.entries(tool.inputSchema.properties))
                assert.ok((arg.description ?? '').length > 0, `${tool.name}.${name}: description`);
        }
    }));
