// The model tools through `shuttle mcp`, a real daemon and the script runtime, against the fake
// OpenAI-compatible endpoint (nish-fake-openai, built beside the tests) on 127.0.0.1: the agent
// finds model_decide, model_ask and model_ground after the desk verbs, a call answers with usage,
// the key travels only from the daemon to the endpoint, and a script calls desk.model.* without
// ever seeing the key. Nothing here reaches the internet.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';

import { BUILD_TESTS_DIR, textOf, withSandbox } from './helpers.mjs';

const FAKE = process.env.NISH_FAKE_OPENAI ||
    path.join(BUILD_TESTS_DIR, 'nish-fake-openai');
const KEY = 'sk-e2e-7f3a91c2b8d4';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

// Starts the fake endpoint; resolves {base, control, stop}.
async function startFake() {
    const child = spawn(FAKE, [], { stdio: ['pipe', 'pipe', 'inherit'] });
    const line = await new Promise((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`nish-fake-openai exited ${code}`)));
    });
    const { base_url: base, port } = JSON.parse(line);
    const root = `http://127.0.0.1:${port}`;
    return {
        base,
        push: (reply) => fetch(`${root}/__push`, { method: 'POST', body: JSON.stringify(reply) }),
        requests: async () => (await fetch(`${root}/__requests`)).json(),
        stop: () => new Promise((resolve) => { child.once('exit', resolve); child.stdin.end(); }),
    };
}

function completion(content) {
    return { id: 'gen-e2e', model: 'fake/build-1', object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 21, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 0 } } };
}

async function withModels(fn) {
    const fake = await startFake();
    try {
        await withSandbox(async (box) => {
            writeFileSync(box.config, `[models]\nbase_url = "${fake.base}"\napi_key_env = "E2E_MODEL_KEY"\n` +
                'decide = "e2e/decide"\nverify = "e2e/verify"\nask = "e2e/ask"\nground = "e2e/ground"\n');
            await box.startDaemon({ E2E_MODEL_KEY: KEY, OPENROUTER_API_KEY: 'sk-or-never-seen' });
            await fn(box, fake);
        });
    } finally {
        await fake.stop();
    }
}

// Skipped only outside scripts/test (which names the build under test): there it must run.
const skip = !process.env.SHUTTLE_BIN && !existsSync(FAKE) && 'nish-fake-openai is not built';

test('the model tools are listed after the desk verbs and answer through the daemon with usage', { skip }, () =>
    withModels(async (box, fake) => {
        const mcp = await box.startMcp();
        const names = (await mcp.client.listTools()).tools.map((t) => t.name);
        const first = names.indexOf('model_decide');
        assert.deepEqual(names.slice(first, first + 3), ['model_decide', 'model_ask', 'model_ground']);
        assert.ok(names.slice(0, first).every((n) => n.startsWith('desk_')), names.join(' '));

        await fake.push({ body: completion('{"saved": {"answer": "no", "confidence": 0.9}}') });
        const decided = await mcp.call('model_decide', {
            state: { title: 'notes.txt *' }, questions: { saved: { type: 'noul', instructions: 'Is the file saved?' } } });
        assert.equal(decided.isError, false, textOf(decided));
        const decision = JSON.parse(textOf(decided));
        assert.ok(Math.abs(decision.answers.saved.probability - 0.1) < 1e-9, textOf(decided));
        assert.deepEqual(decision.served, { model: 'e2e/decide', build: 'fake/build-1', id: 'gen-e2e' });
        assert.deepEqual(decision.usage, { model: 'e2e/decide', input_tokens: 21, output_tokens: 4, cached_tokens: 0 });

        await fake.push({ body: completion('{"x": 500, "y": 1000}') });
        const grounded = await mcp.call('model_ground', {
            png_b64: PNG, target: 'the OK button', area: { left: 10, top: 20, width: 101, height: 11 } });
        assert.equal(grounded.isError, false, textOf(grounded));
        const point = JSON.parse(textOf(grounded));
        assert.equal(point.x, 60);
        assert.equal(point.y, 30);

        const refused = await mcp.call('model_ask', { prompt: 'x', images: ['not-a-png'] });
        assert.equal(refused.isError, true);
        assert.match(textOf(refused), /images\[0\]/);

        const requests = await fake.requests();
        assert.equal(requests.length, 2);
        assert.ok(requests.every((r) => r.headers.authorization === `Bearer ${KEY}`));
        assert.deepEqual(requests.map((r) => JSON.parse(r.body).model), ['e2e/decide', 'e2e/ground']);
    }));

test('a script calls desk.model.ask and never sees the key', { skip }, () =>
    withModels(async (box, fake) => {
        await fake.push({ body: completion('It shows an editor.') });
        const mcp = await box.startMcp();
        const result = await mcp.call('script_run', {
            code: `export async function main() {
                const answer = await desk.model.ask('What does the screen show?', { images: ['${PNG}'] });
                const env = Object.entries(process.env).filter(([, v]) => v.includes('${KEY.slice(3)}')).map(([k]) => k);
                return { text: answer.text, usage: answer.usage, env,
                         names: [process.env.E2E_MODEL_KEY ?? null, process.env.OPENROUTER_API_KEY ?? null] };
            }` });
        assert.equal(result.isError, false, textOf(result));
        const report = JSON.parse(textOf(result));
        assert.equal(report.result.text, 'It shows an editor.');
        assert.equal(report.result.usage.model, 'e2e/ask');
        assert.deepEqual(report.result.env, []);
        assert.deepEqual(report.result.names, [null, null]);
        assert.ok(!textOf(result).includes(KEY));
        const [request] = await fake.requests();
        assert.equal(request.headers.authorization, `Bearer ${KEY}`);
        assert.match(JSON.parse(request.body).messages[0].content[1].image_url.url, /^data:image\/png;base64,/);
    }));
