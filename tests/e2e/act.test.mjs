// Acts on the mock Settings window: confirmed effects with diffs, set_value readback, secure
// fields, structural changes that make tokens stale, headless refusals, and what the audit log
// keeps out.

import { test } from 'node:test';
import assert from 'node:assert/strict';

import { row, withDriver } from './helpers.mjs';

test('click "Remember me": effect confirmed, the diff shows checked', () =>
    withDriver(async (d) => {
        const before = await d.read('Settings');
        const remember = row(before.elements, 'Remember me');
        assert.ok(!remember.states.includes('checked'));

        const { data, text } = await d.ok('click', { element_token: remember.element_token });
        assert.equal(data.effect, 'confirmed');
        assert.equal(data.verified, true);
        assert.equal(data.path, 'semantic');
        assert.equal(data.took_cursor, false, 'headless never moves the pointer');
        assert.equal(data.diff.structural, false);
        assert.equal(data.diff.changed, 1);
        const change = data.diff.entries.find((e) => e.element_index === remember.element_index);
        assert.equal(change.kind, 'changed');
        assert.equal(change.field, 'states');
        assert.ok(!change.from.split(',').includes('checked'));
        assert.ok(change.to.split(',').includes('checked'));
        assert.equal(data.snapshot_id, before.snapshot_id);
        assert.match(text, /^click: confirmed/);
        assert.match(text, /Remember me/);

        const after = await d.read('Settings');
        assert.ok(row(after.elements, 'Remember me').states.includes('checked'));
        // The token is still good (no structural change); a second click unchecks.
        const again = await d.ok('click', { element_token: remember.element_token });
        assert.ok(!again.data.diff.entries[0].to.split(',').includes('checked'));
    }, { session: true }));

test('set_value: Phone filters to a mismatch, Username matches', () =>
    withDriver(async (d) => {
        const { elements } = await d.read('Settings');
        const phone = await d.ok('set_value', { element_token: row(elements, 'Phone').element_token, value: 'abc123' });
        assert.equal(phone.data.readback, 'mismatch');
        assert.notEqual(phone.data.effect, 'confirmed', 'a mismatch is never confirmed');
        assert.equal(phone.data.verified, false);
        const entry = phone.data.diff.entries.find((e) => e.field === 'value');
        assert.equal(entry.to, '123', 'the digits-only field kept the digits');

        const user = await d.ok('set_value', { element_token: row(elements, 'Username').element_token, value: 'grace' });
        assert.equal(user.data.readback, 'match');
        assert.equal(user.data.effect, 'confirmed');
        assert.equal(user.data.verified, true);
        const after = await d.read('Settings');
        assert.equal(row(after.elements, 'Username').value, 'grace');
    }, { session: true }));

test('the password field is refused and never shows its value', () =>
    withDriver(async (d) => {
        const { elements, text } = await d.read('Settings');
        const password = row(elements, 'Password');
        assert.equal(password.value_redacted, true);
        assert.ok(!('value' in password), 'a secure row carries no value');
        assert.ok(!text.includes('correct-horse'), 'the secret leaks into the text');

        const typed = await d.fails('type_text', { element_token: password.element_token, text: 'hunter2' },
            'secure_field_refused');
        assert.equal(typed.error.disposition.retry, 'never');
        await d.fails('set_value', { element_token: password.element_token, value: 'hunter2' }, 'secure_field_refused');

        const skeleton = await d.read('Settings', { skeleton: true });
        assert.ok(!skeleton.elements.some((r) => r.role === 'password_text'), 'secure fields are never in a skeleton');

        const audit = d.auditLines();
        assert.ok(audit.length > 0, 'the audit log was written');
        const events = audit.map((l) => JSON.parse(l));
        assert.ok(events.some((e) => e.tool === 'type_text' && e.outcome === 'secure_field_refused'));
        for (const secret of ['hunter2', 'correct-horse', 'Password'])
            assert.ok(!audit.some((l) => l.includes(secret)), `the audit log holds ${secret}`);
    }, { session: true }));

test('click "Sign in": structural diff, then the old token is stale', () =>
    withDriver(async (d) => {
        const before = await d.read('Settings');
        const signIn = row(before.elements, 'Sign in');
        const { data, text } = await d.ok('click', { element_token: signIn.element_token });
        assert.equal(data.effect, 'confirmed');
        assert.equal(data.diff.structural, true);
        assert.ok(data.diff.added >= 1);
        assert.ok(data.diff.entries.some((e) => e.kind === 'added' && e.role === 'dialog'));
        assert.notEqual(data.snapshot_id, before.snapshot_id, 'a new structure, a new snapshot');
        assert.match(text, /structure changed/);

        const remember = row(before.elements, 'Remember me');
        for (const old of [signIn, remember]) {
            const { error } = await d.fails('click', { element_token: old.element_token }, 'stale_element_token');
            assert.equal(error.disposition.retry, 'after_refresh');
        }

        // Reading again gives fresh tokens; unchanged elements keep their row numbers.
        const after = await d.read('Settings');
        assert.equal(after.snapshot_id, data.snapshot_id);
        const fresh = row(after.elements, 'Remember me');
        assert.equal(fresh.element_index, remember.element_index);
        assert.ok(row(after.elements, 'Signed in'));
        const ok = await d.ok('click', { element_token: fresh.element_token });
        assert.equal(ok.data.effect, 'confirmed');
    }, { session: true }));

test('synthetic input in a headless session: requires_takeover', () =>
    withDriver(async (d) => {
        const { elements, snapshot_id: before } = await d.read('Settings');
        const pressed = await d.fails('press_key', { app: 'Settings', key: 'Tab' }, 'requires_takeover');
        assert.equal(pressed.error.disposition.retry, 'never');
        await d.fails('click', { element_token: row(elements, 'Sign in').element_token, delivery_mode: 'foreground' },
            'requires_takeover');
        // Nothing was sent: the dialog did not open.
        const after = await d.read('Settings');
        assert.equal(after.snapshot_id, before);
        assert.ok(!after.elements.some((r) => r.name === 'Signed in'));
    }, { session: true }));

test('a disabled button is not clicked, and the error says nothing was sent and to wait', () =>
    withDriver(async (d) => {
        const { elements } = await d.read('Settings');
        const disabled = row(elements, 'Disabled action');
        assert.ok(!disabled.states.includes('enabled'));
        const { error } = await d.fails('click', { element_token: disabled.element_token }, 'element_not_ready');
        assert.equal(error.disposition.retry, 'after_refresh');
        assert.match(error.suggestion, /^Nothing was sent; wait until the element is enabled/);
    }, { session: true }));
