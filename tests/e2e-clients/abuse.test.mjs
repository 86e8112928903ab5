// Bad input, generated. Every argument of every tool, as each program declares it once (its
// tools/list inputSchema), gets the inputs a careless or hostile caller sends: missing (when
// required), each wrong JSON type, null, empty, huge (a 256 KiB string, a 100,000-item array,
// 1e308, a 10,000-key object), negative (-1, -2^63), "NaN", nesting 120 deep (inside the
// protocol's 128-level cap) and an unknown extra argument; through the real MCP TypeScript SDK
// client against nish-driver on the mock backend and `shuttle mcp` in front of a mock daemon.
// What no JSON library will send goes raw down the same kind of stdio pipe: a line holding NaN,
// invalid UTF-8 (0xff 0xfe inside a string), a lone surrogate escape, a value nested 10,000 deep,
// and integers written exactly at and past the 64-bit edge (-2^63, 2^63-1, 2^64-1). The first
// four draw a JSON-RPC error with id null (docs/mcp.md, Error mapping: the id cannot be read from
// a line that does not parse, and the nesting scan runs before parsing), which no client can
// match to its request, so through the SDK such a call would only wait out its timeout. Raw, each
// is followed by a ping that must come back after exactly one such error.
//
// Every case must be answered (a per-call timeout), the program must stay alive, and the next
// call must be served (a cheap tool call after every case, so the worker, not only the reader,
// is shown to be alive). What the answer must be follows the documented rules (docs/mcp.md,
// "Tool declarations"; src/mcp/arg_check.cpp):
//
// - nish-driver (ArgPolicy::drop, contract §1): a missing or unusable REQUIRED argument, and any
//   value that breaks what the schema advertises (enum, minimum/maximum, maxLength, maxItems, an
//   object's boolean properties), fails with isError and the contract's error envelope
//   {ok: false, error: {code, message, disposition: {retry}, suggestion}}, code invalid_arguments
//   and a message naming the argument; every error's code, retry and suggestion are checked
//   against docs/errors.md. An OPTIONAL argument of the wrong type is dropped, unless the
//   declaration makes it strict (which the schema does not show): so either it is refused as
//   above, or the call runs without it and structuredContent.ignored_arguments names it with
//   "must be ..."; the same argument must behave the same way for every wrong type. An unknown
//   argument is always named with reason "unknown" (and did_you_mean for a near miss). A value the
//   call may use (right type, inside what is advertised) and null are never named as ignored.
// - shuttle mcp (ArgPolicy::refuse): a missing required argument, an unusable value (wrong type,
//   outside what is advertised) and an unknown argument are refused with isError and a text
//   "<tool>: <argument>: ...". No tool is skipped: the desk is the mock (without its big Chatter
//   window, whose every read is slow); the plugin directory is empty; desk_launch is safe, as no
//   generated app name is an executable on PATH; desk_close and desk_focus name no window that
//   exists; script_run's path resolves inside the sandbox; and the model tools point at a closed
//   port with a key variable that is unset, so a model call whose arguments pass fails on the
//   missing key before it contacts anything.
//
// Integers: the declarations' integers are 64-bit (arg_check's "a whole number an int64 holds";
// 1e19 sent as a float is refused "must be an integer"). The same number written as an integer
// literal must be treated the same, never wrapped into another (2^64-1 is not -1).
//
// Failures are collected, not thrown at the first, so one run lists every case that broke a rule.
// A summary line per program says how many cases ran.
//
// Environment: NISH_DRIVER_BIN, SHUTTLE_BIN (as for the other tests here); ABUSE_CALL_TIMEOUT_MS,
// the per-call timeout (default 30000, generous for AddressSanitizer builds).

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { DRIVER_BIN, SHUTTLE_BIN, textOf } from './clients.mjs';
import { Sandbox } from '../e2e-shuttle/helpers.mjs';

const CALL_TIMEOUT_MS = Number(process.env.ABUSE_CALL_TIMEOUT_MS || 30000);
const CONCURRENCY = 4; // calls in flight on one connection (each server still runs them one at a time)

const HUGE_STRING = 'x'.repeat(256 * 1024);
const HUGE_ARRAY = new Array(100_000).fill('x');
const HUGE_OBJECT = Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, true]));
// The envelope {params: {arguments: {name: ...}}} is 3 levels; 120 more stays under the 128 cap.
const DEEP_ADMITTED = 120;
const DEEP_REFUSED = 10_000;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const UNKNOWN_ARG = 'abuse_unknown_argument';

function nested(depth) {
    let v = [];
    for (let i = 1; i < depth; i++)
        v = [v];
    return v;
}

// docs/errors.md: code → {retry, suggestion} (generated from src/core/errors.def).
const ERROR_TABLE = new Map();
for (const line of readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8').split('\n')) {
    const m = /^\| `([a-z_]+)` \| (\w+) \| (.*) \|$/.exec(line);
    if (m)
        ERROR_TABLE.set(m[1], { retry: m[2], suggestion: m[3] });
}

// JSON text with BigInts written as exact integer literals (no JSON library of ours sends 2^64-1).
function serialize(value) {
    return JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `@@big:${v}@@` : v))
        .replace(/"@@big:(-?\d+)@@"/g, '$1');
}

function show(value) {
    if (value === undefined)
        return '(missing)';
    const text = serialize(value);
    return text.length > 60 ? `${text.slice(0, 40)}... (${text.length} bytes)` : text;
}

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const mentions = (text, name) => new RegExp(`(^|[^A-Za-z0-9_])${escapeRe(name)}([^A-Za-z0-9_]|$)`).test(text);

// ---------------------------------------------------------------------------------------------
// What a case is, generated from one property of an inputSchema.

function kindOf(prop) {
    return Array.isArray(prop.type) ? 'json' : prop.type; // json: text, an object or a list
}

// Whether the server can take `v` as the declared type (arg_check's type_matches).
function typeMatches(kind, v) {
    switch (kind) {
    case 'string': return typeof v === 'string';
    case 'integer':
        if (typeof v === 'bigint')
            return v >= INT64_MIN && v <= INT64_MAX;
        return typeof v === 'number' && Number.isInteger(v) && Math.abs(v) <= 9.2e18;
    case 'number': return typeof v === 'number' || typeof v === 'bigint';
    case 'boolean': return typeof v === 'boolean';
    case 'object': return isPlainObject(v);
    case 'array': return Array.isArray(v) && v.every((item) => typeof item === 'string');
    case 'json': return typeof v === 'string' || isPlainObject(v) || Array.isArray(v);
    default: throw new Error(`a schema type this test does not know: ${kind}`);
    }
}

// The name a refusal of `v` must carry when `v` breaks what the schema advertises, else null.
function violation(name, prop, v) {
    if (prop.enum && !prop.enum.includes(v))
        return name;
    if (typeof v === 'number' || typeof v === 'bigint') {
        const n = Number(v);
        if ((prop.minimum !== undefined && n < prop.minimum) || (prop.maximum !== undefined && n > prop.maximum))
            return name;
    }
    if (typeof v === 'string' && prop.maxLength !== undefined && Buffer.byteLength(v) > prop.maxLength)
        return name;
    if (Array.isArray(v) && prop.maxItems !== undefined && v.length > prop.maxItems)
        return name;
    if (isPlainObject(v) && prop.properties) {
        for (const [key, item] of Object.entries(v))
            if (prop.properties[key] && item !== null && typeof item !== prop.properties[key].type)
                return `${name}.${key}`;
    }
    return null;
}

// What the documented rules say about `value` for argument `name`:
// refuse (must be refused, naming `name`), unusable (the wrong type, optional: refused or
// dropped-and-named by the driver, refused by the desk), absent (null or missing, optional),
// free (a value the call may use: any well-formed answer).
function judge(name, prop, required, value) {
    if (value === undefined || value === null)
        return required ? { kind: 'refuse', name } : { kind: 'absent' };
    if (!typeMatches(kindOf(prop), value))
        return required ? { kind: 'refuse', name } : { kind: 'unusable', name };
    const broken = violation(name, prop, value);
    if (broken)
        return { kind: 'refuse', name: broken };
    return { kind: 'free' };
}

const WRONG_TYPES = {
    string: [7, true, { a: 1 }, ['x']],
    integer: ['7', true, 1.5, [7], {}],
    number: ['7', false, [7], {}],
    boolean: ['true', 1, [true], {}],
    object: ['{}', 7, [], true],
    array: ['x', 7, {}, [1, 2]],
    json: [7, true],
};
const EMPTY = { string: [''], array: [[]], object: [{}], json: ['', [], {}] };
const HUGE = {
    string: [HUGE_STRING],
    integer: [1e308],
    number: [1e308, -1e308],
    array: [HUGE_ARRAY],
    object: [HUGE_OBJECT],
    json: [HUGE_STRING, HUGE_ARRAY],
};

// A value of the declared type that passes what is advertised: the baseline of a required
// argument while another one is varied.
function plausible(prop) {
    switch (kindOf(prop)) {
    case 'string': return prop.enum ? prop.enum[0] : 'abuse-probe';
    case 'integer':
    case 'number': return prop.minimum ?? 0;
    case 'boolean': return false;
    case 'array': return [];
    default: return {};
    }
}

// Every generated case of one tool: {tool, label, args, arg, expect}.
function generate(tool, overrides = {}) {
    const schema = tool.inputSchema ?? {};
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const baseline = {};
    for (const name of required)
        baseline[name] = plausible(props[name]);
    Object.assign(baseline, overrides);
    const cases = [];
    const add = (name, label, value) => {
        const args = { ...baseline };
        if (value === undefined)
            delete args[name];
        else
            args[name] = value;
        cases.push({ tool: tool.name, arg: name, label: `${name} = ${label}`, args,
            expect: judge(name, props[name], required.has(name), value) });
    };
    for (const [name, prop] of Object.entries(props)) {
        const kind = kindOf(prop);
        if (required.has(name))
            add(name, 'missing', undefined);
        add(name, 'null', null);
        for (const v of WRONG_TYPES[kind])
            add(name, `wrong type ${show(v)}`, v);
        for (const v of EMPTY[kind] ?? [])
            add(name, `empty ${show(v)}`, v);
        for (const v of HUGE[kind] ?? [])
            add(name, `huge ${show(v)}`, v);
        if (kind === 'integer' || kind === 'number') {
            add(name, 'negative -1', -1);
            add(name, 'negative -2^63', -(2 ** 63));
        }
        add(name, 'NaN-ish "NaN"', 'NaN');
        add(name, `nested ${DEEP_ADMITTED} deep`, nested(DEEP_ADMITTED));
        for (const key of Object.keys(prop.properties ?? {}))
            add(name, `{${key}: "NaN"}`, { [key]: 'NaN' });
    }
    // An unknown argument, and a near miss of the longest declared name.
    const names = Object.keys(props);
    cases.push({ tool: tool.name, arg: UNKNOWN_ARG, label: `unknown ${UNKNOWN_ARG}`,
        args: { ...baseline, [UNKNOWN_ARG]: 1 }, expect: { kind: 'unknown', name: UNKNOWN_ARG } });
    if (names.length) {
        const longest = names.reduce((a, b) => (b.length > a.length ? b : a));
        const guess = `${longest}_value`;
        cases.push({ tool: tool.name, arg: guess, label: `unknown near miss ${guess}`,
            args: { ...baseline, [guess]: 1 }, expect: { kind: 'unknown', name: guess, nearMiss: true, declared: names } });
    }
    return cases;
}

// The integer arguments again, written exactly at and past the 64-bit edge (raw pipe only).
function generateExactIntegers(tool, overrides = {}) {
    const schema = tool.inputSchema ?? {};
    const props = schema.properties ?? {};
    const required = new Set(schema.required ?? []);
    const baseline = {};
    for (const name of required)
        baseline[name] = plausible(props[name]);
    Object.assign(baseline, overrides);
    const cases = [];
    for (const [name, prop] of Object.entries(props)) {
        if (kindOf(prop) !== 'integer')
            continue;
        for (const v of [INT64_MIN, INT64_MAX, UINT64_MAX])
            cases.push({ tool: tool.name, arg: name, label: `${name} = exactly ${v}`, args: { ...baseline, [name]: v },
                expect: judge(name, prop, required.has(name), v) });
    }
    return cases;
}

// ---------------------------------------------------------------------------------------------
// What each program's answer must be.

function driverEnvelope(result) {
    if (!result || !Array.isArray(result.content) || typeof result.isError !== 'boolean')
        return ['not a tool result'];
    const s = result.structuredContent;
    if (!isPlainObject(s))
        return ['no structuredContent object'];
    const problems = [];
    const text = textOf(result);
    if (result.isError) {
        const e = s.error;
        if (s.ok !== false || !isPlainObject(e))
            return ['an error without {ok: false, error: {...}}'];
        const row = ERROR_TABLE.get(e.code);
        if (!row)
            problems.push(`error code ${e.code} is not in docs/errors.md`);
        else if (e.disposition?.retry !== row.retry || e.suggestion !== row.suggestion)
            problems.push(`${e.code}: retry ${e.disposition?.retry} / suggestion "${e.suggestion}" differ from ` +
                'docs/errors.md');
        if (typeof e.message !== 'string' || !e.message || e.message.includes('\n'))
            problems.push(`error.message is not one line: ${JSON.stringify(e.message)}`);
        const head = `${e.code}: ${e.message} [retry: ${e.disposition?.retry}] ${e.suggestion}`;
        if (!text.startsWith(head))
            problems.push(`the text is not "<code>: <message> [retry: ...] <suggestion>": ${text.slice(0, 200)}`);
    } else if (s.ok !== true) {
        problems.push('a success without ok: true');
    }
    const ignored = s.ignored_arguments;
    const lastLine = text.split('\n').at(-1);
    if (ignored !== undefined) {
        const wellFormed = Array.isArray(ignored) && ignored.length > 0 && ignored.length <= 8 &&
            ignored.every((i) => typeof i.name === 'string' && typeof i.reason === 'string' &&
                (i.did_you_mean === undefined || typeof i.did_you_mean === 'string'));
        if (!wellFormed) {
            problems.push(`malformed ignored_arguments: ${JSON.stringify(ignored).slice(0, 200)}`);
        } else {
            const line = 'ignored arguments: ' + ignored.map((i) =>
                `${i.name}: ${i.reason}${i.did_you_mean ? `, did you mean ${i.did_you_mean}?` : ''}`).join('; ');
            if (lastLine !== line)
                problems.push(`the text's last line is not "${line}": ${lastLine.slice(0, 200)}`);
        }
    } else if (/^ignored arguments: /m.test(text)) {
        problems.push('the text names ignored arguments that structuredContent does not');
    }
    return problems;
}

// outcomes: "tool arg" → Map of how a wrong-typed optional argument went ('refused' or 'ignored')
// → the case that showed it.
function checkDriver(c, result, outcomes) {
    const problems = driverEnvelope(result);
    if (problems.length)
        return problems;
    const s = result.structuredContent;
    const ignored = s.ignored_arguments ?? [];
    const named = (n) => ignored.find((i) => i.name === n);
    const refusedNaming = (n) => result.isError && s.error.code === 'invalid_arguments' && mentions(s.error.message, n);
    const got = result.isError ? `${s.error.code}: ${s.error.message}` : 'success';
    const { kind, name } = c.expect;
    switch (kind) {
    case 'refuse':
        if (!refusedNaming(name))
            problems.push(`must fail with invalid_arguments naming ${name}; got ${got}`);
        if (named(c.arg))
            problems.push(`${c.arg} is named in ignored_arguments, yet it was not let go by`);
        break;
    case 'unusable': {
        const dropped = named(name);
        let outcome;
        if (refusedNaming(name) && !dropped)
            outcome = 'refused';
        else if (dropped && /^must be /.test(dropped.reason) && !refusedNaming(name))
            outcome = 'ignored';
        if (!outcome) {
            problems.push(`an optional argument of the wrong type must be refused naming it, or dropped and named in ` +
                `ignored_arguments; got ${got}, ignored_arguments ${JSON.stringify(ignored)}`);
        } else {
            const key = `${c.tool} ${name}`;
            if (!outcomes.has(key))
                outcomes.set(key, new Map());
            outcomes.get(key).set(outcome, c.label);
        }
        break;
    }
    case 'absent':
    case 'free':
        if (named(c.arg))
            problems.push(`${c.arg} = ${show(c.args[c.arg])} is named in ignored_arguments (${named(c.arg).reason}), ` +
                `yet the call may use it`);
        break;
    case 'unknown': {
        const i = named(name);
        if (!i || i.reason !== 'unknown')
            problems.push(`the unknown argument must be named in ignored_arguments with reason "unknown"; got ` +
                `${JSON.stringify(ignored)}`);
        else if (c.expect.nearMiss && !(i.did_you_mean && c.expect.declared.includes(i.did_you_mean) &&
            name.includes(i.did_you_mean)))
            problems.push(`a near miss must carry did_you_mean, a declared name it contains; got ${JSON.stringify(i)}`);
        break;
    }
    default: throw new Error(kind);
    }
    return problems;
}

function checkShuttle(c, result) {
    if (!result || !Array.isArray(result.content) || typeof result.isError !== 'boolean')
        return ['not a tool result'];
    const text = textOf(result);
    const { kind, name } = c.expect;
    if (kind === 'refuse' || kind === 'unusable') {
        if (!result.isError || !text.startsWith(`${c.tool}: ${name}: `))
            return [`must be refused naming ${name} ("${c.tool}: ${name}: ..."); got ` +
                `${result.isError ? 'an error' : 'a success'}: ${text.slice(0, 200)}`];
    } else if (kind === 'unknown') {
        if (!result.isError || !text.startsWith(`${c.tool}: ${name}: ${c.tool} takes no such argument`))
            return [`an unknown argument must be refused naming it; got ${text.slice(0, 200)}`];
        if (c.expect.nearMiss) {
            const m = / \(did you mean ([A-Za-z0-9_]+)\?\)/.exec(text);
            if (!m || !c.expect.declared.includes(m[1]) || !name.includes(m[1]))
                return ['a near miss must be answered "did you mean <a declared name it contains>?"; got ' +
                    text.slice(0, 200)];
        }
    }
    return [];
}

// ---------------------------------------------------------------------------------------------
// Running the cases through the SDK client.

async function sdkConnect(params) {
    const transport = new StdioClientTransport({ ...params, stderr: 'pipe' });
    const conn = { transport, stderr: '', closed: false };
    transport.stderr?.on('data', (d) => {
        conn.stderr = (conn.stderr + d).slice(-20000);
    });
    conn.client = new Client({ name: 'abuse-e2e', version: '0.0.1' });
    await conn.client.connect(transport);
    conn.client.onclose = () => { conn.closed = true; };
    conn.call = (name, args) =>
        conn.client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    conn.alive = () => {
        if (conn.closed || !transport.pid)
            return false;
        try {
            process.kill(transport.pid, 0);
            return true;
        } catch {
            return false;
        }
    };
    return conn;
}

// Runs `cases` (in order, CONCURRENCY at a time); after each, the probe must be served.
// Returns the number of cases sent.
async function runCases(conn, cases, { check, probe, alive, failures }) {
    const probeCall = probe.call;
    let next = 0;
    let sent = 0;
    let dead = false;
    async function lane() {
        while (next < cases.length && !dead) {
            const c = cases[next++];
            const where = `${c.tool} ${c.label}`;
            sent += 1;
            try {
                const result = await conn.call(c.tool, c.args);
                for (const p of check(c, result))
                    failures.push(`${where}: ${p}`);
            } catch (err) {
                failures.push(`${where}: no answer: ${err.message}`);
            }
            if (!alive()) {
                dead = true;
                failures.push(`${where}: the program is gone after this case\n${conn.stderr.slice(-4000)}`);
                return;
            }
            try {
                const problem = probe(await conn.call(probeCall.name, probeCall.args));
                if (problem)
                    failures.push(`${where}: the next call was not served right: ${problem}`);
            } catch (err) {
                failures.push(`${where}: the next call (${probeCall.name}) got no answer: ${err.message}`);
            }
        }
    }
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return sent;
}

// ---------------------------------------------------------------------------------------------
// The raw pipe: one more process of the same program, spoken to line by line.

class RawPeer {
    constructor(command, args, { env, cwd }) {
        this.child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
        this.pending = new Map();
        this.faults = []; // errors with id null, in arrival order
        this.stderr = '';
        this.nextId = 1;
        let buffer = '';
        this.child.stdout.setEncoding('utf8');
        this.child.stdout.on('data', (chunk) => {
            buffer += chunk;
            let i;
            while ((i = buffer.indexOf('\n')) >= 0) {
                const line = buffer.slice(0, i);
                buffer = buffer.slice(i + 1);
                this.#receive(line);
            }
        });
        this.child.stderr.on('data', (d) => { this.stderr = (this.stderr + d).slice(-20000); });
        this.child.stdin.on('error', () => {});
        this.child.on('exit', () => {
            for (const { reject } of this.pending.values())
                reject(new Error(`the program exited (${this.child.exitCode ?? this.child.signalCode})`));
            this.pending.clear();
        });
    }

    #receive(line) {
        let message;
        try {
            message = JSON.parse(line);
        } catch {
            this.faults.push({ unparsable: line.slice(0, 200) });
            return;
        }
        if (message.id === null) {
            this.faults.push(message);
            return;
        }
        const waiter = this.pending.get(message.id);
        if (waiter) {
            this.pending.delete(message.id);
            waiter.resolve(message);
        }
    }

    alive() { return this.child.exitCode === null && this.child.signalCode === null; }

    write(data) { this.child.stdin.write(data); }

    // Sends a request (BigInts as exact literals); resolves its response.
    request(method, params) {
        const id = this.nextId++;
        const body = params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
        return this.#await(id, () => this.write(serialize(body) + '\n'), method);
    }

    #await(id, send, what) {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => {
                this.pending.delete(id);
                reject(new Error(`${what}: no answer in ${CALL_TIMEOUT_MS} ms`));
            }, CALL_TIMEOUT_MS);
            this.pending.set(id, {
                resolve: (m) => { clearTimeout(timer); resolve(m); },
                reject: (e) => { clearTimeout(timer); reject(e); },
            });
            send();
        });
    }

    // A tools/call; resolves its result, or throws on a JSON-RPC error.
    async call(name, args) {
        const response = await this.request('tools/call', { name, arguments: args });
        if (response.error)
            throw new Error(`JSON-RPC error ${response.error.code}: ${response.error.message}`);
        return response.result;
    }

    // Writes one line no request can be matched to (the server cannot read its id), then a ping;
    // resolves the faults the line drew (answered before the ping, by the same reader).
    async unmatched(bytes) {
        const before = this.faults.length;
        this.write(bytes);
        this.write('\n');
        await this.request('ping');
        return this.faults.slice(before);
    }

    async initialize() {
        const response = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {},
            clientInfo: { name: 'abuse-raw', version: '0.0.1' } });
        assert.ok(response.result, JSON.stringify(response));
        this.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    }

    async close() {
        if (!this.alive())
            return;
        const exited = new Promise((resolve) => this.child.once('exit', resolve));
        this.child.stdin.end();
        const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
    }
}

// The line-level cases: NaN, invalid UTF-8, a lone surrogate, nesting past the cap; each must draw
// exactly one protocol fault (id null: its id cannot be read) and leave the server serving.
async function rawLineCases(peer, tools, { probe, failures }) {
    let count = 0;
    const expectFault = async (where, bytes, code, alsoAnswer = false) => {
        count += 1;
        let faults;
        try {
            faults = await peer.unmatched(bytes);
        } catch (err) {
            failures.push(`${where}: the ping after it got no answer: ${err.message}`);
            return;
        }
        if (alsoAnswer && faults.length === 0)
            return; // answered as an ordinary request (see the lone surrogate below)
        if (faults.length !== 1 || faults[0].error?.code !== code)
            failures.push(`${where}: must draw one JSON-RPC error ${code} with id null; drew ` +
                JSON.stringify(faults).slice(0, 300));
        if (!peer.alive())
            failures.push(`${where}: the program is gone\n${peer.stderr.slice(-4000)}`);
        await probeRaw(peer, where, probe, failures);
    };
    const firstOf = (tool, kind) =>
        Object.entries(tool.inputSchema.properties ?? {}).find(([, p]) => kindOf(p) === kind)?.[0];
    const withString = tools.filter((t) => firstOf(t, 'string'));
    const line = (tool, name, rawValue) => {
        const args = {};
        for (const n of tool.inputSchema.required ?? [])
            args[n] = plausible(tool.inputSchema.properties[n]);
        delete args[name];
        const text = JSON.stringify({ jsonrpc: '2.0', id: 'abuse-raw', method: 'tools/call',
            params: { name: tool.name, arguments: args } });
        // Splice the raw value in as the last argument, before the closing "}}}" of arguments,
        // params and the message.
        const open = text.length - 3;
        const sep = Object.keys(args).length ? ',' : '';
        return Buffer.concat([Buffer.from(text.slice(0, open) + `${sep}${JSON.stringify(name)}:`),
            Buffer.from(rawValue), Buffer.from(text.slice(open))]);
    };

    // NaN, once: JSON cannot carry it; -32700 Parse error.
    const nanTool = tools.find((t) => firstOf(t, 'integer') || firstOf(t, 'number'));
    const nanArg = firstOf(nanTool, 'integer') ?? firstOf(nanTool, 'number');
    await expectFault(`raw ${nanTool.name} ${nanArg} = NaN`, line(nanTool, nanArg, 'NaN'), -32700);

    // Invalid UTF-8 inside a string, for a few tools: -32700 (docs/mcp.md: "not valid UTF-8").
    for (const tool of withString.slice(0, 4)) {
        const name = firstOf(tool, 'string');
        await expectFault(`raw ${tool.name} ${name} = "a\\xff\\xfeb"`,
            line(tool, name, Buffer.concat([Buffer.from('"a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"')])), -32700);
    }

    // A lone UTF-16 surrogate escape: well-formed JSON text that names no character. What an SDK
    // writes for a string cut in the middle of an emoji. Either refused as a parse error, or
    // answered; never a hang or a crash.
    {
        const tool = withString[0];
        const name = firstOf(tool, 'string');
        await expectFault(`raw ${tool.name} ${name} = "a\\ud83d"`, line(tool, name, '"a\\ud83d"'), -32700, true);
    }

    // Nesting past the 128-level cap, for every argument: -32600, checked before parsing.
    const deep = '['.repeat(DEEP_REFUSED) + ']'.repeat(DEEP_REFUSED);
    for (const tool of tools)
        for (const name of Object.keys(tool.inputSchema.properties ?? {}))
            await expectFault(`raw ${tool.name} ${name} nested ${DEEP_REFUSED} deep`, line(tool, name, deep), -32600);
    return count;
}

async function probeRaw(peer, where, probe, failures) {
    try {
        const problem = probe(await peer.call(probe.call.name, probe.call.args));
        if (problem)
            failures.push(`${where}: the next call was not served right: ${problem}`);
    } catch (err) {
        failures.push(`${where}: the next call (${probe.call.name}) got no answer: ${err.message}`);
    }
}

// Whether `result` refuses c's argument by name, in either program's wording.
function refuses(c, result) {
    const e = result.structuredContent?.error;
    return result.isError && (textOf(result).startsWith(`${c.tool}: ${c.arg}: `) ||
        (e?.code === 'invalid_arguments' && mentions(e.message, c.arg)));
}

// The exact-integer cases through the raw peer, checked as the SDK's are.
async function rawIntegerCases(peer, cases, opts) {
    const { check, probe, failures, alive = () => peer.alive(), stderr = () => peer.stderr } = opts;
    for (const c of cases) {
        const where = `raw ${c.tool} ${c.label}`;
        try {
            const result = await peer.call(c.tool, c.args);
            for (const p of check(c, result))
                failures.push(`${where}: ${p}`);
            // 2^63-1 is an int64; an answer that speaks of -2^63 (other than a refusal quoting a
            // range) turned it into another number on the way to the tool.
            if (c.args[c.arg] === INT64_MAX && !refuses(c, result) &&
                new RegExp(`(^|[^0-9])${INT64_MIN}([^0-9]|$)`).test(textOf(result)))
                failures.push(`${where}: the answer speaks of ${INT64_MIN}, so the argument reached the tool as another ` +
                    `number: ${textOf(result).slice(0, 200)}`);
        } catch (err) {
            failures.push(`${where}: no answer: ${err.message}`);
        }
        if (!alive()) {
            failures.push(`${where}: the program is gone after this case\n${stderr().slice(-4000)}`);
            return;
        }
        await probeRaw(peer, where, probe, failures);
    }
}

// ---------------------------------------------------------------------------------------------

const summaries = [];
after(() => {
    for (const line of summaries)
        console.log(line);
});

function summarize(program, counts, failures) {
    const total = counts.sdk + counts.raw;
    const answered = failures.length ? `${failures.length} answered against the rules` : 'all answered';
    summaries.push(`${program}: ${total} generated bad-input cases (${counts.sdk} through the SDK client, ` +
        `${counts.raw} raw on the pipe), ${answered}, ${counts.alive ? 'process alive' : 'PROCESS GONE'}`);
}

function assertNoFailures(failures) {
    const shown = failures.slice(0, 60).join('\n');
    assert.equal(failures.length, 0, `${failures.length} cases broke a rule:\n${shown}` +
        (failures.length > 60 ? `\n... and ${failures.length - 60} more` : ''));
}

// The mock desktop without its big Chatter window (about 4,200 elements, whose every read takes
// long enough to dominate the run): the shipped Notes, Settings and Calculator fixtures, copied
// into `dir` for NISH_MOCK_FIXTURES. Both programs load the mock from there.
const SMALL_DESK = ['20_notes.json', '30_settings.json', '40_calculator.json'];
function smallDesk(dir) {
    const fixtures = path.join(dir, 'fixtures');
    mkdirSync(fixtures);
    for (const name of SMALL_DESK)
        copyFileSync(new URL(`../../fixtures/mock/${name}`, import.meta.url), path.join(fixtures, name));
    return fixtures;
}

function driverEnv(tmp) {
    const env = { NISH_AUDIT_LOG: path.join(tmp, 'audit.jsonl'), NISH_MOCK_FIXTURES: smallDesk(tmp) };
    for (const k of ['PATH', 'HOME'])
        if (process.env[k] !== undefined)
            env[k] = process.env[k];
    return env;
}

// The driver's session: takeover on the small desk's three apps, so acts get past consent and
// reach their handlers; start_session and end_session run last (their cases replace or end it).
const DRIVER_SESSION = { apps: ['Notes', 'Settings', 'Calculator'], input: 'takeover' };
const DRIVER_LAST = ['start_session', 'end_session'];
const DRIVER_PROBE = Object.assign((r) => {
    const p = driverEnvelope(r);
    return p.length ? p.join('; ') : (r.isError ? textOf(r) : null);
}, { call: { name: 'get_session_state', args: {} } });

// What a required element token of an act is while another argument varies: a live token from a
// fresh read of Calculator (its 7 button, whose press changes the display; = as a drag's target),
// so the act gets past the token to its handler. get_window_state reads Calculator by name unless
// its target is what varies.
async function driverBaseline(conn, tool) {
    const props = tool.inputSchema.properties ?? {};
    const required = tool.inputSchema.required ?? [];
    if (tool.name === 'get_window_state')
        return { app: 'Calculator' };
    if (!required.includes('element_token'))
        return {};
    const read = await conn.call('get_window_state', { app: 'Calculator' });
    const token = (name) => read.structuredContent?.elements?.find((e) => e.name === name)?.element_token;
    assert.ok(token('7') && token('='), `no Calculator tokens: ${textOf(read).slice(0, 300)}`);
    const out = { element_token: token('7') };
    if (required.includes('to_token') && props.to_token)
        out.to_token = token('=');
    return out;
}

function ordered(tools, last) {
    return [...tools.filter((t) => !last.includes(t.name)),
        ...last.map((n) => tools.find((t) => t.name === n)).filter(Boolean)];
}

test('nish-driver: bad input generated from every tool\'s declaration, through the SDK client and the raw pipe', async () => {
    assert.ok(ERROR_TABLE.size > 20 && ERROR_TABLE.has('invalid_arguments'), 'docs/errors.md was not read');
    const tmp = mkdtempSync(path.join(tmpdir(), 'nish-abuse-'));
    const failures = [];
    const counts = { sdk: 0, raw: 0, alive: false };
    const params = { command: DRIVER_BIN, args: ['mcp', '--backend', 'mock', '--consent', 'auto'],
        env: driverEnv(tmp) };
    let conn;
    let peer;
    try {
        conn = await sdkConnect(params);
        const { tools } = await conn.client.listTools();
        assert.ok(tools.length >= 20, `${tools.length} tools`);
        const session = await conn.call('start_session', DRIVER_SESSION);
        assert.equal(session.isError, false, textOf(session));

        const outcomes = new Map();
        const check = (c, r) => checkDriver(c, r, outcomes);
        for (const tool of ordered(tools, DRIVER_LAST)) {
            const cases = generate(tool, await driverBaseline(conn, tool));
            assert.ok(cases.length > 0, tool.name);
            counts.sdk += await runCases(conn, cases, { check, probe: DRIVER_PROBE, alive: conn.alive, failures });
            if (!conn.alive())
                break;
        }
        for (const [key, seen] of outcomes)
            if (seen.size > 1)
                failures.push(`${key}: a wrong-typed optional argument is refused for ${seen.get('refused')} but dropped ` +
                    `for ${seen.get('ignored')}; strict or not, it is one or the other`);
        counts.alive = conn.alive();

        peer = new RawPeer(params.command, params.args, { env: params.env });
        await peer.initialize();
        const started = await peer.call('start_session', DRIVER_SESSION);
        assert.equal(started.isError, false, JSON.stringify(started));
        counts.raw += await rawLineCases(peer, tools, { probe: DRIVER_PROBE, failures });
        const exact = ordered(tools, DRIVER_LAST).flatMap((t) => generateExactIntegers(t));
        await rawIntegerCases(peer, exact, { check, probe: DRIVER_PROBE, failures });
        counts.raw += exact.length;
        counts.alive = counts.alive && conn.alive() && peer.alive();
    } finally {
        await conn?.client.close().catch(() => {});
        await peer?.close();
        rmSync(tmp, { recursive: true, force: true });
        summarize('nish-driver', counts, failures);
    }
    assertNoFailures(failures);
});

// The desk: a mock daemon on the small desk, an empty plugin directory, and model tools that can
// reach nothing (a closed port, an unset key variable).
const SHUTTLE_CONFIG = '[models]\nbase_url = "http://127.0.0.1:9/v1"\napi_key_env = "NISH_ABUSE_NO_SUCH_KEY"\n';
const SHUTTLE_PROBE = Object.assign((r) => {
    if (r.isError)
        return textOf(r);
    const listed = JSON.parse(textOf(r));
    return Array.isArray(listed.windows) ? null : textOf(r).slice(0, 200);
}, { call: { name: 'desk_windows', args: {} } });

test('shuttle mcp: bad input generated from every tool\'s declaration, through the SDK client and the raw pipe', async () => {
    const box = new Sandbox();
    const failures = [];
    const counts = { sdk: 0, raw: 0, alive: false };
    let conn;
    let peer;
    try {
        writeFileSync(box.config, SHUTTLE_CONFIG);
        const daemon = await box.startDaemon({ NISH_MOCK_FIXTURES: smallDesk(box.dir) });
        const daemonAlive = () => daemon.exitCode === null && daemon.signalCode === null;
        let daemonStderr = '';
        daemon.stderr.on('data', (d) => { daemonStderr = (daemonStderr + d).slice(-8000); });
        // cwd: the sandbox, so a script_run path made absolute lands there.
        const params = { command: SHUTTLE_BIN, args: ['mcp'], env: box.env(), cwd: box.dir };
        conn = await sdkConnect(params);
        const { tools } = await conn.client.listTools();
        assert.ok(tools.length >= 20, `${tools.length} tools`);
        for (const t of tools)
            assert.equal(t.inputSchema.additionalProperties, false, `${t.name} refuses unknown arguments`);

        const check = (c, r) => checkShuttle(c, r);
        const alive = () => conn.alive() && daemonAlive();
        const cases = tools.flatMap((t) => generate(t));
        counts.sdk = await runCases(conn, cases, { check, probe: SHUTTLE_PROBE, alive, failures });
        counts.alive = alive();
        rawPhase: {
            if (!daemonAlive()) {
                failures.push(`the daemon is gone:\n${daemonStderr}`);
                break rawPhase; // nothing more can be served
            }

            peer = new RawPeer(params.command, params.args, { env: params.env, cwd: params.cwd });
            await peer.initialize();
            counts.raw += await rawLineCases(peer, tools, { probe: SHUTTLE_PROBE, failures });
            const exact = tools.flatMap((t) => generateExactIntegers(t));
            const rawAlive = () => peer.alive() && daemonAlive();
            await rawIntegerCases(peer, exact, { check, probe: SHUTTLE_PROBE, failures, alive: rawAlive,
                stderr: () => `${peer.stderr}\n--- the daemon:\n${daemonStderr}` });
            counts.raw += exact.length;

            // Two admitted extremes whose effect the docs state. desk_scroll's amount is at least 1
            // (scrolling 50 notches at most); desk_wait's timeout_ms past 5000 counts as 5000, so on
            // the still mock desk the wait lasts its 5 s and answers changed: false.
            const extreme = async (where, fn) => {
                counts.raw += 1;
                if (!rawAlive())
                    return;
                try {
                    const problem = await fn();
                    if (problem)
                        failures.push(`${where}: ${problem}`);
                } catch (err) {
                    failures.push(`${where}: ${err.message}`);
                }
            };
            await extreme('raw desk_scroll amount = exactly 2^63-1', async () => {
                const r = await peer.call('desk_scroll', { direction: 'down', window: 'Settings', amount: INT64_MAX });
                if (r.isError)
                    return textOf(r).startsWith('desk_scroll: amount: ') ? null : textOf(r).slice(0, 200);
                return JSON.parse(textOf(r)).amount >= 1 ? null : `scrolled ${textOf(r)}; amount is at least 1`;
            });
            await extreme('raw desk_wait timeout_ms = exactly 2^63-1', async () => {
                const since = JSON.parse(textOf(await peer.call('desk_windows', {})));
                const start = Date.now();
                const r = await peer.call('desk_wait', { since, timeout_ms: INT64_MAX });
                const took = Date.now() - start;
                if (!r.isError && JSON.parse(textOf(r)).changed === false && took >= 4500)
                    return null;
                return `must wait the 5000 ms cap on a still desk; answered after ${took} ms: ${textOf(r).slice(0, 120)}`;
            });
            if (!daemonAlive())
                failures.push(`the daemon is gone:\n${daemonStderr}`);
            counts.alive = counts.alive && conn.alive() && peer.alive() && daemonAlive();
        }
    } finally {
        await conn?.client.close().catch(() => {});
        await peer?.close();
        await box.close();
        summarize('shuttle mcp', counts, failures);
    }
    assertNoFailures(failures);
});
