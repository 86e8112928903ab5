// nish-driver on the Linux backend through the SDK client, with a real browser on the virtual test
// desktop: a documentation page (fixtures/web/docs.html) in Chromium reads as its outline, a
// drill-down from a chapter's heading reads that chapter, and a token of it acts. Runs only inside
// the test desktop (scripts/test sets NISH_E2E_DESKTOP=1 there); elsewhere it is skipped.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { DRIVER_BIN } from './helpers.mjs';

const onDesktop = process.env.NISH_E2E_DESKTOP === '1';
const PAGE = fileURLToPath(new URL('../../fixtures/web/docs.html', import.meta.url));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function call(client, name, args = {}) {
    const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 60000 });
    const text = r.content.map((c) => c.text ?? '').join('\n');
    assert.equal(r.isError ?? false, false, `${name}: ${text}`);
    return { data: r.structuredContent, text };
}

test('a documentation page in Chromium: its outline, a chapter drilled into, a token of it acting', { skip: !onDesktop }, async () => {
    const profile = mkdtempSync(path.join(tmpdir(), 'nish-e2e-chromium-'));
    const browser = spawn('chromium', ['--force-renderer-accessibility', '--no-sandbox', '--disable-gpu', '--no-first-run',
        '--password-store=basic', '--disable-background-networking', '--disable-component-update', '--disable-sync',
        `--user-data-dir=${profile}`, '--window-size=1200,900', `file://${PAGE}`],
    { env: process.env, stdio: 'ignore', detached: true });
    const client = new Client({ name: 'nish-e2e-desktop', version: '1.0.0' });
    try {
        await client.connect(new StdioClientTransport({
            command: DRIVER_BIN, args: ['mcp', '--backend', 'linux', '--consent', 'auto'], env: process.env, stderr: 'inherit',
        }));
        await call(client, 'start_session', { apps: ['chromium'] });
        // The window, then a skeleton that holds the whole page (Chromium builds its objects on
        // first contact, and the page's script adds the chapters after load) and held still for
        // two reads (the same snapshot: while Chromium lays the new page out, what shows changes,
        // and a token of the read before answers stale_element_token, as it should).
        let window = null;
        let skeleton = null;
        let last = null;
        for (let i = 0; i < 150 && !skeleton; i++) {
            if (!window)
                window = (await call(client, 'list_windows')).data.windows.find((w) => (w.title ?? '').startsWith('Docs fixture'));
            if (window) {
                const r = await client.callTool({ name: 'get_window_state', arguments: { window_id: window.window_id, skeleton: true } });
                const read = r.isError ? null : r.structuredContent;
                if (read && read.elements.some((e) => e.label === 'Chapter 16: Testing') && last?.snapshot_id === read.snapshot_id)
                    skeleton = read;
                last = read;
            }
            if (!skeleton)
                await sleep(200);
        }
        assert.ok(skeleton, 'the page never read whole');
        const chapters = skeleton.elements.filter((e) => e.role === 'heading' && e.level === 2 && e.label.startsWith('Chapter '));
        assert.equal(chapters.length, 16, 'every chapter is a row of the outline');
        const chapter5 = chapters.find((e) => e.label === 'Chapter 5: Text fields');
        assert.ok(chapter5.section_count > 8, JSON.stringify(chapter5));

        const part = (await call(client, 'get_window_state', { window_id: window.window_id, root: chapter5.element_token })).data;
        assert.equal(part.root, chapter5.element_token);
        assert.equal(part.elements.length, chapter5.section_count);
        const names = part.elements.map((e) => e.name);
        assert.ok(names.includes('Text fields: Example'), names.join(' | '));
        assert.ok(!names.includes('Chapter 6: Lists'), 'the next chapter is not in the section');
        const copy = part.elements.find((e) => e.role === 'push_button' && e.name === 'Copy example');
        assert.ok(copy, names.join(' | '));

        await call(client, 'click', { element_token: copy.element_token });
        let copied = false;
        for (let i = 0; i < 30 && !copied; i++) {
            const all = (await call(client, 'get_window_state', { window_id: window.window_id, max_elements: 5000 })).data;
            copied = all.elements.some((e) => e.role === 'push_button' && e.name === 'Copied');
            if (!copied)
                await sleep(100);
        }
        assert.ok(copied, 'the button never said Copied');
    } finally {
        await client.close().catch(() => {});
        try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
        // Helpers that left the browser's process group still name its profile.
        spawnSync('pkill', ['-KILL', '-f', profile]);
        rmSync(profile, { recursive: true, force: true });
    }
});
