// What the desk's tool definitions cost a model: every host sends tools/list's definitions to the
// model on every turn. Counted as o200k tokens (the tokenizer of current OpenAI models, from npm)
// of the definitions as the SDK client lists them.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { encode } from 'gpt-tokenizer/encoding/o200k_base';

import { withSandbox } from './helpers.mjs';

const BUDGET = 3000;

test(`tools/list: the desk's tool definitions cost at most ${BUDGET} o200k tokens`, () =>
    withSandbox(async (box) => {
        await box.startDaemon();
        const mcp = await box.startMcp();
        const { tools } = await mcp.client.listTools();
        const tokens = encode(JSON.stringify(tools)).length;
        console.log(`shuttle tools/list: ${tools.length} tools, ${tokens} o200k tokens (budget ${BUDGET})`);
        assert.ok(tokens <= BUDGET, `${tokens} o200k tokens, over the budget of ${BUDGET}`);
        for (const tool of tools) {
            assert.ok(tool.description.length >= 20, `${tool.name}: description`);
            for (const [name, arg] of Object.entries(tool.inputSchema.properties ?? {}))
                assert.ok((arg.description ?? '').length > 0, `${tool.name}.${name}: description`);
        }
    }));
