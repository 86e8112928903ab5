// Sessions and reads on the mock desktop: windows, skeletons, drill-down, token stability,
// ambiguous targets and screenshots.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { SKELETON_LINE, row, withDriver } from './helpers.mjs';

const MOCK_APPS = ['Calculator', 'Chatter', 'Notes', 'Settings'];

test('start_session then list_windows shows the mock desktop', () =>
    withDriver(async (d) => {
        const { data: s, text } = await d.ok('start_session', {});
        assert.equal(s.active, true);
        assert.equal(s.input, 'headless');
        assert.equal(s.takeover.on, false);
        assert.match(s.session, /^mcp:e2e:/, 'the session id carries clientInfo.name');
        assert.deepEqual([...s.apps].sort(), MOCK_APPS.map((a) => a.toLowerCase()));
        assert.ok(text.includes(s.session));

        const { data: w, text: wtext } = await d.ok('list_windows', {});
        assert.equal(w.count, w.windows.length);
        assert.equal(w.windows.length, 5);
        assert.deepEqual([...new Set(w.windows.map((x) => x.app))].sort(), MOCK_APPS);
        assert.equal(w.windows.filter((x) => x.app === 'Notes').length, 2);
        assert.equal(w.windows.filter((x) => x.active).length, 1);
        for (const x of w.windows) {
            assert.ok(Number.isInteger(x.window_id) && Number.isInteger(x.pid));
            assert.ok(wtext.includes(`window_id=${x.window_id}`));
        }

        const { data: state } = await d.ok('get_session_state', {});
        assert.equal(state.session, s.session);
        assert.equal(state.active, true);
    }));

test('a session limited to one app sees only that app', () =>
    withDriver(async (d) => {
        const { data } = await d.ok('start_session', { apps: ['Calculator'] });
        assert.deepEqual(data.apps, ['calculator']);
        const { data: w } = await d.ok('list_windows', {});
        assert.deepEqual(w.windows.map((x) => x.app), ['Calculator']);
        await d.fails('get_window_state', { app: 'Chatter' }, 'window_target_not_found');
    }));

test('skeleton of Chatter, drill-down by token, the same rows in a full read', () =>
    withDriver(async (d) => {
        const sk = await d.read('Chatter', { skeleton: true });
        assert.equal(sk.view, 'skeleton');
        assert.equal(sk.root, null);
        assert.ok(sk.elements.length >= 5 && sk.elements.length <= 60, `${sk.elements.length} rows`);
        assert.equal(sk.element_count, sk.elements.length);
        assert.ok(sk.total_elements > 4000, 'Chatter is the dense app');
        for (const r of sk.elements) {
            assert.equal(r.element_token, `${sk.snapshot_id}:${r.element_index}`);
            assert.ok(r.label.length <= 80);
        }
        const lines = sk.text.split('\n').filter((l) => l.length > 0);
        assert.match(lines[0], /skeleton/, 'a header line comes first');
        const rowLines = lines.slice(1);
        assert.equal(rowLines.length, sk.elements.length);
        for (const l of rowLines)
            assert.match(l, SKELETON_LINE);
        // Landmarks only: no leaf controls such as push buttons in a skeleton.
        assert.ok(!sk.elements.some((r) => r.role === 'push_button' || r.role === 'password_text'));

        const history = row(sk.elements, 'Message history');
        assert.ok(history.descendant_count > 1000);
        const drill = await d.read('Chatter', { root: history.element_token, max_elements: 40 });
        assert.equal(drill.root, history.element_token, 'root is echoed');
        assert.equal(drill.snapshot_id, sk.snapshot_id, 'one structure, one snapshot');
        assert.equal(drill.elements[0].element_index, history.element_index);
        assert.equal(drill.elements[0].element_token, history.element_token);
        assert.equal(drill.elements.length, 40);
        assert.equal(drill.truncated, true);
        const messages = drill.elements.filter((r) => r.role === 'list_item');
        assert.ok(messages.length >= 2, 'the drill-down reaches the messages');
        const inside = new Set([history.element_index]);
        for (const r of drill.elements.slice(1)) {
            assert.ok(inside.has(r.parent_index), `row ${r.element_index} lies outside the root`);
            inside.add(r.element_index);
        }

        const full = await d.read('Chatter', { max_elements: 5000 });
        assert.equal(full.truncated, false);
        assert.equal(full.elements.length, full.total_elements);
        const same = full.elements.find((r) => r.element_index === history.element_index);
        assert.equal(same.element_token, history.element_token);
        assert.equal(same.name, 'Message history');
        assert.equal(same.descendant_count, history.descendant_count);
        const firstMessage = full.elements.find((r) => r.element_index === messages[0].element_index);
        assert.equal(firstMessage.element_token, messages[0].element_token);
        assert.equal(firstMessage.name, messages[0].name);
    }, { session: true }));

test('a token from the skeleton acts on the element of the full read', () =>
    withDriver(async (d) => {
        // Settings' skeleton lists its pages; a drill-down into one gives tokens that act.
        const sk = await d.read('Settings', { skeleton: true });
        const page = row(sk.elements, 'General');
        const drill = await d.read('Settings', { root: page.element_token });
        const remember = row(drill.elements, 'Remember me');
        const { data } = await d.ok('click', { element_token: remember.element_token });
        assert.equal(data.effect, 'confirmed');
        assert.equal(data.snapshot_id, sk.snapshot_id, 'a state change keeps the structure');
    }, { session: true }));

test('app "Notes" matches two windows: ambiguous_target with both candidates', () =>
    withDriver(async (d) => {
        const { data: w } = await d.ok('list_windows', {});
        const notes = w.windows.filter((x) => x.app === 'Notes');
        const { error } = await d.fails('get_window_state', { app: 'Notes' }, 'ambiguous_target');
        assert.equal(error.disposition.retry, 'never');
        assert.equal(error.candidates.length, 2);
        assert.deepEqual(
            error.candidates.map((c) => c.window_id).sort(),
            notes.map((x) => x.window_id).sort());
        for (const c of error.candidates)
            assert.equal(c.app, 'Notes');
        // A candidate's pid and window_id pick one window.
        const pick = error.candidates[1];
        const read = await d.ok('get_window_state', { pid: pick.pid, window_id: pick.window_id });
        assert.equal(read.data.window.window_id, pick.window_id);
    }, { session: true }));

test('include_screenshot adds a PNG image block', () =>
    withDriver(async (d) => {
        const { data, result } = await d.ok('get_window_state', { app: 'Settings', include_screenshot: true });
        const images = result.content.filter((b) => b.type === 'image');
        assert.equal(images.length, 1);
        assert.equal(images[0].mimeType, 'image/png');
        assert.ok(images[0].data.startsWith('iVBOR'), 'base64 of the PNG signature');
        const png = Buffer.from(images[0].data, 'base64');
        assert.equal(png.readUInt32BE(16), data.screenshot.width, 'IHDR width');
        assert.equal(png.readUInt32BE(20), data.screenshot.height, 'IHDR height');
        assert.equal(data.screenshot.width, data.window.frame.w);

        const plain = await d.ok('get_window_state', { app: 'Settings' });
        assert.ok(!plain.result.content.some((b) => b.type === 'image'), 'no screenshot unless asked');
    }, { session: true }));
