// nish-driver against Playwright MCP on the same pages (docs/benchmarks.md, "Against Playwright
// MCP"), run inside the virtual test desktop by bench/linux/run-inside-desktop. Both servers are
// driven through the MCP TypeScript SDK client over stdio, as a model host drives them, and every
// time is taken around one tools/call on the client's side, and until the answer's last byte
// arrived (the server's part; see connect()).
//
//   node bench.mjs --driver BUILD/bin/nish-driver --pages fixtures/web [--json OUT]
//
// Playwright MCP drives Debian's Chromium through Playwright and answers browser_snapshot with an
// ARIA snapshot of the page; nish-driver reads the same page from a Chromium it does not control,
// through AT-SPI. The pages are served on 127.0.0.1 by this script, so neither browser needs a
// network. Every browser and server started here is stopped before the script exits.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const { values: opts } = parseArgs({
    options: {
        driver: { type: 'string' },
        pages: { type: 'string' },
        chromium: { type: 'string', default: '/usr/bin/chromium' },
        json: { type: 'string' },
        trials: { type: 'string', default: '10' },
    },
});
if (!opts.driver || !opts.pages)
    throw new Error('usage: bench.mjs --driver NISH_DRIVER --pages FIXTURE_DIR [--json OUT]');
const TRIALS = Number(opts.trials);
const CHAT_LANDMARKS = ['Search messages', 'Channels', 'Channel tools', 'Messages', 'Composer', 'Members'];
// The flags the driver's Chromium runs with everywhere in the project (tests, bench): accessibility
// on, nothing that calls out to the network, and no keyring (where one is installed, Chromium waits
// on it before it loads an http page, and its password prompt covers the desktop).
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--password-store=basic', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--disable-default-apps', '--disable-domain-reliability',
    '--no-pings', '--disable-features=OptimizationHints,MediaRouter,Translate'];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const textOf = (r) => r.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
const tokens = (s) => encode(s).length;
const log = (...a) => console.error('bench-playwright:', ...a);

async function timed(fn) {
    const t0 = process.hrtime.bigint();
    const r = await fn();
    return { ms: Number(process.hrtime.bigint() - t0) / 1e6, wireMs: r.wireMs, serverMs: r.serverMs, r };
}

// --- the pages, on 127.0.0.1 ---------------------------------------------------------------------

function servePages(dir) {
    const server = http.createServer((req, res) => {
        const name = path.basename(new URL(req.url, 'http://x').pathname);
        try {
            const body = readFileSync(path.join(dir, name));
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(body);
        } catch {
            res.writeHead(404);
            res.end();
        }
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

// --- MCP clients ----------------------------------------------------------------------------------

async function connect(name, command, args, env) {
    const transport = new StdioClientTransport({ command, args, env, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (d) => { stderr += d; });
    const client = new Client({ name, version: '0.0.1' });
    try {
        await client.connect(transport);
    } catch (err) {
        throw new Error(`${name}: ${err.message}\n${stderr}`);
    }
    // The wire time of the last call: from the request's send to its response parsed by the
    // transport, before the SDK client's own handling.
    let sentAt = 0n;
    let wireMs = 0;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
        sentAt = process.hrtime.bigint();
        return send(message, options);
    };
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
        wireMs = Number(process.hrtime.bigint() - sentAt) / 1e6;
        onmessage(message, extra);
    };
    // The server's time of the last call: from the request's send to the arrival of the answer's
    // last byte (the chunk that ends its line), before the client decodes and checks it. The SDK's
    // stdio reader copies its whole buffer on every 64 KiB chunk, which for a megabyte answer
    // costs more than the server's work and keeps the event loop from reading the next chunk: so
    // the bench hands the SDK's reader the chunks of a line at once, when its last byte is in
    // (the same bytes, in one piece; the transport keeps its child process in a field of its own).
    let lastByteAt = 0n;
    const stdout = transport._process?.stdout;
    if (stdout) {
        const readers = stdout.listeners('data');
        stdout.removeAllListeners('data');
        let pending = [];
        stdout.on('data', (chunk) => {
            pending.push(chunk);
            if (!chunk.includes(10))
                return;
            lastByteAt = process.hrtime.bigint();
            const whole = pending.length === 1 ? pending[0] : Buffer.concat(pending);
            pending = [];
            for (const read of readers)
                read.call(stdout, whole);
        });
    }
    const call = async (tool, a = {}) => {
        const r = await client.callTool({ name: tool, arguments: a }, undefined, { timeout: 120000 });
        if (r.isError)
            throw new Error(`${name} ${tool} ${JSON.stringify(a)}: ${textOf(r).slice(0, 400)}`);
        r.wireMs = wireMs;
        r.serverMs = lastByteAt > sentAt ? Number(lastByteAt - sentAt) / 1e6 : NaN;
        return r;
    };
    return { client, call, stderr: () => stderr };
}

// --- Playwright MCP -------------------------------------------------------------------------------

async function playwright(urls, tmp) {
    const config = path.join(tmp, 'playwright-mcp.json');
    // Headed on the test desktop, like the driver's Chromium, with a profile in the bench's
    // temporary directory (so the end of the run can check that no browser of it is left).
    writeFileSync(config, JSON.stringify({
        browser: {
            browserName: 'chromium',
            userDataDir: path.join(tmp, 'playwright-profile'),
            launchOptions: { executablePath: opts.chromium, headless: false, chromiumSandbox: false, args: CHROMIUM_FLAGS },
            contextOptions: { viewport: { width: 1200, height: 800 } },
        },
    }));
    const cli = new URL('node_modules/@playwright/mcp/cli.js', import.meta.url).pathname;
    const env = { ...process.env };
    const pw = await connect('playwright-mcp', process.execPath,
        [cli, '--config', config, '--output-dir', path.join(tmp, 'playwright-out')], env);
    const out = {};
    try {
        for (const [page, url] of Object.entries(urls)) {
            await pw.call('browser_navigate', { url });
            await sleep(1000);
            const ms = [];
            const wire = [];
            const server = [];
            let text = '';
            for (let i = 0; i < TRIALS; i++) {
                const t = await timed(() => pw.call('browser_snapshot'));
                ms.push(t.ms);
                wire.push(t.wireMs);
                server.push(t.serverMs);
                text = textOf(t.r);
            }
            out[page] = { first_ms: ms[0], median_ms: median(ms), median_wire_ms: median(wire), median_server_ms: median(server), tokens: tokens(text),
                chars: text.length, lines: text.split('\n').length };
            log(`playwright ${page}: ${JSON.stringify(out[page])}`);
        }
        await pw.call('browser_close').catch(() => {});
    } finally {
        await pw.client.close();
    }
    return out;
}

// --- nish-driver ----------------------------------------------------------------------------------

// A Chromium of its own on the test desktop, in a process group the bench stops.
function startChromium(url, profile) {
    const child = spawn(opts.chromium, ['--force-renderer-accessibility', ...CHROMIUM_FLAGS,
        `--user-data-dir=${profile}`, '--window-size=1200,900', url], { detached: true, stdio: 'ignore' });
    return child;
}

function stopGroup(child) {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ }
}

async function startDriver(extra = {}) {
    const env = {};
    for (const [k, v] of Object.entries(process.env))
        if (v !== undefined)
            env[k] = v;
    env.NISH_AUDIT_LOG = '';
    Object.assign(env, extra);
    const d = await connect('nish-bench', opts.driver, ['mcp', '--backend', 'linux', '--consent', 'auto'], env);
    return d;
}

// Starts a session for Chromium (consent is automatic here) and waits for the window of `pid`
// showing the page's title.
async function sessionOn(d, pid, title) {
    await d.call('start_session', { apps: ['chromium'] });
    for (let i = 0; i < 300; i++) {
        const r = await d.call('list_windows');
        const w = (r.structuredContent.windows ?? []).find((w) => w.pid === pid && w.title.includes(title));
        if (w)
            return w.window_id;
        await sleep(100);
    }
    throw new Error(`no Chromium window titled ${title} for pid ${pid}`);
}

const whole = (window_id) => ({ window_id, max_elements: 5000, max_depth: 200 });

// Waits until Chromium's tree holds the page whole (the script-built lists are in it): two reads in
// a row with the same element count above `min`.
// A whole read, or null when it passed its deadline: while Chromium builds a big page's objects on
// first contact, a read may.
const readOrLate = (d, window_id) => d.call('get_window_state', whole(window_id)).catch((err) => {
    if (!/timed_out|app_not_responding/.test(err.message))
        throw err;
    return null;
});

async function settle(d, window_id, min) {
    let last = -1;
    for (let i = 0; i < 60; i++) {
        const r = await readOrLate(d, window_id);
        if (!r) {
            last = -1;
            await sleep(500);
            continue;
        }
        const n = r.structuredContent.total_elements;
        if (n >= min && n === last)
            return n;
        last = n;
        await sleep(500);
    }
    throw new Error(`the page's tree did not settle (last ${last} elements)`);
}

// Chromium makes its accessibility objects on first contact: a driver of its own touches the page
// once and waits until its tree holds at least `min` elements and settles, so that the cold reads
// measured after it are the driver's, not Chromium's. Returns the first read's time.
async function firstContact(chrome, title, min) {
    const first = await startDriver();
    try {
        const wid = await sessionOn(first, chrome.pid, title);
        const t0 = process.hrtime.bigint();
        await readOrLate(first, wid);
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        await settle(first, wid, min);
        return ms;
    } finally {
        await first.client.close();
    }
}

async function driverDense(url, tmp) {
    const profile = mkdtempSync(path.join(tmp, 'chromium-'));
    const chrome = startChromium(url, profile);
    const out = {};
    try {
        // Chromium makes its accessibility objects on first contact: see firstContact.
        out.first_contact_ms = await firstContact(chrome, 'Dense fixture', 4000);

        const d = await startDriver();
        try {
            const wid = await sessionOn(d, chrome.pid, 'Dense fixture');
            // Cold: the first whole-budget read of a driver that has not read this window.
            let t = await timed(() => d.call('get_window_state', whole(wid)));
            out.cold_ms = t.ms;
            let sc = t.r.structuredContent;
            out.elements = sc.elements.length;
            out.budget_truncated = sc.budget_truncated === true;
            out.full_tokens = tokens(textOf(t.r));

            // Repeat reads of the unchanged window.
            const repeat = [];
            const wire = [];
            const server = [];
            for (let i = 0; i < TRIALS; i++) {
                t = await timed(() => d.call('get_window_state', whole(wid)));
                repeat.push(t.ms);
                wire.push(t.wireMs);
                server.push(t.serverMs);
            }
            out.burst_ms = median(repeat);
            out.burst_server_ms = median(server);
            // The same reads at a model's pace, each after a pause of 1.5 s (a model's turn takes
            // longer): a window that drew nothing for a second keeps its frames (docs/linux-atspi.md,
            // "Frames kept"), where the reads above, within the second after the cold read, ask them.
            repeat.length = 0;
            wire.length = 0;
            server.length = 0;
            for (let i = 0; i < TRIALS; i++) {
                await sleep(1500);
                t = await timed(() => d.call('get_window_state', whole(wid)));
                repeat.push(t.ms);
                wire.push(t.wireMs);
                server.push(t.serverMs);
            }
            out.repeat_ms = median(repeat);
            out.repeat_wire_ms = median(wire);
            out.repeat_server_ms = median(server);
            out.repeat_all_ms = repeat;
            sc = t.r.structuredContent;

            // One label changed: a Reply button's onclick renames it Replied. The click goes
            // through the driver (the button's own AT-SPI action) and is not timed; after a pause
            // for Chromium to pass the change on, the next whole read is timed and must show it.
            const changed = [];
            const changedServer = [];
            let seen = 0;
            const trials = Math.min(TRIALS, 5);
            for (let i = 0; i < trials; i++) {
                const button = sc.elements.find((e) => /button/.test(e.role) && e.name === 'Reply');
                if (!button)
                    throw new Error('no Reply button in the read');
                await d.call('click', { element_token: button.element_token });
                await sleep(500);
                t = await timed(() => d.call('get_window_state', whole(wid)));
                changed.push(t.ms);
                changedServer.push(t.serverMs);
                sc = t.r.structuredContent;
                const after = sc.elements[button.element_index];
                if (after && after.name === 'Replied')
                    seen++;
            }
            out.changed_ms = median(changed);
            out.changed_server_ms = median(changedServer);
            out.changed_seen = `${seen}/${trials}`;

            // Scrolled: another X client's wheel scrolls the page five clicks (down and up by turns;
            // Chromium announces no scroll), and the next whole read is timed: it asks every row's
            // states again (docs/linux-atspi.md, "Warm reads") where it used to read cold.
            const frame = (await d.call('list_windows')).structuredContent.windows.find((w) => w.window_id === wid).frame;
            const scrolled = [];
            for (let i = 0; i < trials; i++) {
                spawnSync('xdotool', ['mousemove', String(Math.round(frame.x + frame.w / 2)), String(Math.round(frame.y + frame.h * 2 / 3)),
                    'click', '--repeat', '5', '--delay', '30', i % 2 === 0 ? '5' : '4']);
                await sleep(500);
                t = await timed(() => d.call('get_window_state', whole(wid)));
                scrolled.push(t.serverMs);
            }
            out.scrolled_server_ms = median(scrolled);
        } finally {
            await d.client.close();
        }
    } finally {
        stopGroup(chrome);
    }
    return { out, profile };
}

// The first whole read of the chat page by each of ten fresh drivers, one with outlines and one
// without (NISH_ATSPI_OUTLINE=0) in turn: `onRead(timed, outline, driver, window_id, i)`.
async function alternatingColdReads(chrome, onRead) {
    for (let i = 0; i < 10; i++) {
        const outline = i % 2 === 0;
        const d = await startDriver(outline ? {} : { NISH_ATSPI_OUTLINE: '0' });
        try {
            const wid = await sessionOn(d, chrome.pid, 'Chat fixture');
            const t = await timed(() => d.call('get_window_state', whole(wid)));
            await onRead(t, outline, d, wid, i);
        } finally {
            await d.client.close();
        }
    }
}

async function driverChat(url, tmp) {
    const profile = mkdtempSync(path.join(tmp, 'chromium-'));
    const chrome = startChromium(url, profile);
    const out = {};
    try {
        out.first_contact_ms = await firstContact(chrome, 'Chat fixture', 3000);

        // Cold reads: the first whole read of each of five fresh driver processes; between them,
        // five that walk the page object by object (no outline: docs/linux-atspi.md, "Outlines"),
        // the baseline of the outline's gain, in the same run.
        const cold = [];
        const coldServer = [];
        const walked = [];
        await alternatingColdReads(chrome, async (t, outline, d, wid, i) => {
            if (!outline) {
                walked.push(t.serverMs);
                return;
            }
            cold.push(t.ms);
            coldServer.push(t.serverMs);
            out.elements = t.r.structuredContent.elements.length;
            out.full_tokens = tokens(textOf(t.r));
            if (i === 0) {
                // The default skeleton, as a model asks for it first.
                const sk = await timed(() => d.call('get_window_state', { window_id: wid, skeleton: true }));
                const labels = new Set(sk.r.structuredContent.elements.map((e) => e.label ?? e.name));
                out.skeleton_ms = sk.ms;
                out.skeleton_rows = sk.r.structuredContent.elements.length;
                out.skeleton_tokens = tokens(textOf(sk.r));
                out.missing_landmarks = CHAT_LANDMARKS.filter((l) => !labels.has(l));
            }
        });
        out.cold_ms = median(cold);
        out.cold_server_ms = median(coldServer);
        out.cold_all_ms = cold;
        out.cold_walked_server_ms = median(walked);
    } finally {
        stopGroup(chrome);
    }
    return { out, profile };
}

// A Chromium that loads the chat page with no assistive client asking (its X window bears the
// page's title, found through X, and the page has 3 s more): the first client's listener then has
// it make its item cache with the page in it, as a browser a person used before the driver came.
// Cold reads of fresh drivers from that cache, each count of actions taken from one outline of
// Action.NActions (docs/linux-atspi.md, "Action counts from the cache's pages"), alternating with
// drivers that ask GetActions of each object (NISH_ATSPI_OUTLINE=0), in the same run.
async function driverChatCached(url, tmp) {
    const profile = mkdtempSync(path.join(tmp, 'chromium-'));
    const chrome = startChromium(url, profile);
    const out = {};
    try {
        let titled = false;
        for (let i = 0; i < 400 && !titled; i++) {
            const found = spawnSync('xdotool', ['search', '--onlyvisible', '--pid', String(chrome.pid), '--name', 'Chat fixture']);
            titled = found.status === 0 && String(found.stdout).trim() !== '';
            if (!titled)
                await sleep(100);
        }
        if (!titled)
            throw new Error('Chromium showed no window titled Chat fixture');
        await sleep(3000);
        out.first_contact_ms = await firstContact(chrome, 'Chat fixture', 3000);
        const counted = [];
        const asked = [];
        await alternatingColdReads(chrome, (t, outline) => {
            (outline ? counted : asked).push(t.serverMs);
            out.elements = t.r.structuredContent.elements.length;
        });
        out.cold_server_ms = median(counted);
        out.cold_asked_server_ms = median(asked);
    } finally {
        stopGroup(chrome);
    }
    return { out, profile };
}

// --- the table ------------------------------------------------------------------------------------

function table(pw, dense, chat, cached) {
    const f = (x, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
    const ms = (x) => `${f(x)} ms`;
    const tok = (x) => f(x, 0);
    const rows = [];
    const row = (figure, ours, base, ratio, target, met) =>
        rows.push([figure, ours, base, ratio, target, met === undefined ? '' : met ? 'met' : 'not met']);
    const faster = (base, ours) => base >= ours ? `${f(base / ours)}x faster` : `${f(ours / base)}x slower`;

    // Each time twice: through the whole SDK call, and (in brackets) until the answer's last byte
    // arrived, before the client's own decoding: the server's part. Targets are judged on the
    // server's part; the client's decoding grows with the answer's size, not with the server.
    const both = (call, server) => `${ms(call)} (${ms(server)})`;
    row(`repeat read, dense.html (${dense.elements} elements${dense.budget_truncated ? ', budget' : ''}), one every 1.5 s, median of ${TRIALS}`,
        both(dense.repeat_ms, dense.repeat_server_ms), `browser_snapshot ${both(pw.dense.median_ms, pw.dense.median_server_ms)}`,
        faster(pw.dense.median_server_ms, dense.repeat_server_ms), '<= 10 ms, >= 20x',
        dense.repeat_server_ms <= 10 && pw.dense.median_server_ms / dense.repeat_server_ms >= 20);
    row(`the same, back to back right after the cold read (frames asked), median of ${TRIALS}`,
        both(dense.burst_ms, dense.burst_server_ms), `browser_snapshot ${both(pw.dense.median_ms, pw.dense.median_server_ms)}`,
        faster(pw.dense.median_server_ms, dense.burst_server_ms), '', undefined);
    row('cold read, dense.html (fresh driver)', ms(dense.cold_ms), `browser_snapshot ${ms(pw.dense.median_ms)}`,
        faster(pw.dense.median_ms, dense.cold_ms), '', undefined);
    row(`read after one label changed, dense.html (seen ${dense.changed_seen})`,
        both(dense.changed_ms, dense.changed_server_ms), `browser_snapshot ${both(pw.dense.median_ms, pw.dense.median_server_ms)}`,
        faster(pw.dense.median_server_ms, dense.changed_server_ms), '<= 20 ms', dense.changed_server_ms <= 20);
    row('read after a scroll, dense.html (5 wheel clicks, no event), median of 5', `(${ms(dense.scrolled_server_ms)})`,
        `the cold read above (${ms(dense.cold_ms)})`, faster(dense.cold_ms, dense.scrolled_server_ms), '', undefined);
    row(`cold read, chat.html (${chat.elements} elements), median of 5 fresh drivers`,
        both(chat.cold_ms, chat.cold_server_ms), `browser_snapshot ${both(pw.chat.median_ms, pw.chat.median_server_ms)}`,
        faster(pw.chat.median_server_ms, chat.cold_server_ms), 'no slower', chat.cold_server_ms <= pw.chat.median_server_ms);
    row('cold read, chat.html, walked object by object (no outline), median of 5', `(${ms(chat.cold_walked_server_ms)})`,
        `the outline's read (${ms(chat.cold_server_ms)})`, faster(chat.cold_walked_server_ms, chat.cold_server_ms), '', undefined);
    row(`cold read, chat.html open before the first client (from the item cache; ${cached.elements} elements), median of 5`,
        `(${ms(cached.cold_server_ms)})`, `browser_snapshot ${both(pw.chat.median_ms, pw.chat.median_server_ms)}`,
        faster(pw.chat.median_server_ms, cached.cold_server_ms), '', undefined);
    row('the same, each count of actions asked (GetActions), median of 5', `(${ms(cached.cold_asked_server_ms)})`,
        `with the outline of counts (${ms(cached.cold_server_ms)})`, faster(cached.cold_asked_server_ms, cached.cold_server_ms),
        '', undefined);
    row(`default skeleton, chat.html (${chat.skeleton_rows} rows; landmarks missing: ${chat.missing_landmarks.join(', ') || 'none'})`,
        `${tok(chat.skeleton_tokens)} tokens`, `browser_snapshot ${tok(pw.chat.tokens)} tokens`,
        `${f(pw.chat.tokens / chat.skeleton_tokens)}x fewer`, 'all landmarks, <= 1,000, >= 50x',
        chat.missing_landmarks.length === 0 && chat.skeleton_tokens <= 1000 && pw.chat.tokens / chat.skeleton_tokens >= 50);
    row('full read, chat.html, tokens', `${tok(chat.full_tokens)} tokens`, `browser_snapshot ${tok(pw.chat.tokens)} tokens`,
        `${f(chat.full_tokens / pw.chat.tokens, 2)}x`, '', undefined);
    row(`full read, dense.html (${dense.elements} elements), tokens`, `${tok(dense.full_tokens)} tokens`,
        `browser_snapshot ${tok(pw.dense.tokens)} tokens (whole page)`, `${f(dense.full_tokens / pw.dense.tokens, 2)}x`, '', undefined);

    const head = ['figure', 'ours', 'baseline (Playwright MCP)', 'ratio', 'target', ''];
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    const line = (r) => '| ' + r.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

// Processes whose command line names the bench's temporary directory: browsers (both profiles are
// in it) that outlived their server.
function leftovers(tmp) {
    const pids = [];
    for (const entry of readdirSync('/proc')) {
        if (!/^\d+$/.test(entry) || Number(entry) === process.pid)
            continue;
        try {
            if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(tmp))
                pids.push(Number(entry));
        } catch { /* exited meanwhile */ }
    }
    return pids;
}

async function main() {
    const tmp = mkdtempSync(path.join(tmpdir(), 'nish-bench-pw-'));
    const server = await servePages(path.resolve(opts.pages));
    const base = `http://127.0.0.1:${server.address().port}`;
    const urls = { dense: `${base}/dense.html`, chat: `${base}/chat.html` };
    const profiles = [];
    try {
        const pw = await playwright(urls, tmp);
        const dense = await driverDense(urls.dense, tmp);
        profiles.push(dense.profile);
        log(`driver dense: ${JSON.stringify(dense.out)}`);
        const chat = await driverChat(urls.chat, tmp);
        profiles.push(chat.profile);
        log(`driver chat: ${JSON.stringify(chat.out)}`);
        const cached = await driverChatCached(urls.chat, tmp);
        profiles.push(cached.profile);
        log(`driver chat from the item cache: ${JSON.stringify(cached.out)}`);
        if (opts.json)
            writeFileSync(opts.json, JSON.stringify({ playwright: pw, dense: dense.out, chat: chat.out, chat_cached: cached.out }) + '\n');
        console.log(table(pw, dense.out, chat.out, cached.out));
    } finally {
        server.close();
        // Chromium's crash handler writes into the profile for a moment after the browser exits.
        await sleep(1500);
        const left = leftovers(tmp);
        if (left.length > 0) {
            log(`stopping ${left.length} processes left behind: ${left.join(' ')}`);
            for (const pid of left)
                try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
            await sleep(500);
        }
        rmSync(tmp, { recursive: true, force: true });
    }
}

await main();
