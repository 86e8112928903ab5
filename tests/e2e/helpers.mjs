// Shared fixtures for the end-to-end tests: start nish-driver on the mock backend behind the
// real MCP TypeScript SDK client, call tools, and pick rows out of reads.
//
// Every test starts its own driver process (startDriver) and closes it, so no test depends on
// the session, tokens or mock state another test left behind.

import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Ajv from 'ajv';

// The binary under test: $NISH_DRIVER_BIN, else the default build tree of this checkout.
export const DRIVER_BIN =
    process.env.NISH_DRIVER_BIN || fileURLToPath(new URL('../../build/bin/nish-driver', import.meta.url));
export const DRIVER_ARGS = ['mcp', '--backend', 'mock', '--consent', 'auto'];

// The contract's 24 tool names (contract §1: tool names are unchanged across minor versions).
export const CONTRACT_TOOLS = [
    'list_windows', 'get_window_state', 'start_session', 'end_session', 'get_session_state',
    'click', 'double_click', 'right_click', 'type_text', 'set_value', 'press_key', 'hotkey',
    'scroll', 'drag', 'bring_to_front', 'move_cursor', 'health_report', 'clipboard_read',
    'clipboard_write', 'list_notifications', 'dismiss_notification', 'invoke_notification_action',
    'list_app_actions', 'app_action',
];

export const SKELETON_LINE = /^\s*\[\d+\] \S+ ".*" children=\d+ descendants=\d+$/;

// Contract §2.1, written here from the contract's words rather than taken from the driver, so the
// driver's own schema cannot hide a drift.
const ERROR_ENVELOPE_SCHEMA = {
    type: 'object',
    required: ['ok', 'error'],
    properties: {
        ok: { const: false },
        error: {
            type: 'object',
            required: ['code', 'message', 'disposition', 'suggestion'],
            properties: {
                code: { type: 'string', pattern: '^[a-z_]+$' },
                message: { type: 'string', pattern: '^[^\\n]*$' },
                disposition: {
                    type: 'object',
                    required: ['retry'],
                    properties: { retry: { enum: ['safe', 'unsafe', 'after_refresh', 'never'] } },
                },
                suggestion: { type: 'string', minLength: 1 },
                candidates: {
                    type: 'array',
                    maxItems: 8,
                    items: {
                        type: 'object',
                        required: ['window_id', 'pid', 'app'],
                        properties: {
                            window_id: { type: 'integer' },
                            pid: { type: 'integer' },
                            app: { type: 'string', maxLength: 64 },
                        },
                    },
                },
            },
        },
    },
};
const ajv = new Ajv({ allErrors: true, strict: false });
const validateEnvelope = ajv.compile(ERROR_ENVELOPE_SCHEMA);

// The environment the driver gets. The SDK's stdio transport would otherwise pass only a few
// variables (HOME, PATH, USER, ...), so NISH_MOCK_FIXTURES and friends would be lost.
export function driverEnv(auditLog) {
    const env = {};
    for (const [k, v] of Object.entries(process.env))
        if (k.startsWith('NISH_') && k !== 'NISH_DRIVER_BIN' && v !== undefined)
            env[k] = v;
    for (const k of ['PATH', 'HOME'])
        if (process.env[k] !== undefined)
            env[k] = process.env[k];
    env.NISH_AUDIT_LOG = auditLog;
    return env;
}

function firstLine(result) {
    const block = result.content.find((b) => b.type === 'text');
    return block ? block.text.split('\n')[0] : '';
}

export function textOf(result) {
    return result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

// One running driver and its SDK client.
export class Driver {
    constructor() {
        this.tmp = mkdtempSync(path.join(tmpdir(), 'nish-e2e-'));
        this.auditLog = path.join(this.tmp, 'audit.jsonl');
        this.stderrText = '';
        this.protocolVersion = undefined;
        this.sent = [];
        this.received = [];
        this.clientErrors = [];
    }

    // args: the driver's arguments (the mock desktop with every consent granted by default).
    async start(clientName = 'e2e', args = DRIVER_ARGS) {
        if (!existsSync(DRIVER_BIN))
            throw new Error(`nish-driver not found at ${DRIVER_BIN}: build it or set NISH_DRIVER_BIN`);
        const transport = new StdioClientTransport({
            command: DRIVER_BIN,
            args,
            env: driverEnv(this.auditLog),
            stderr: 'pipe',
        });
        transport.stderr?.on('data', (d) => { this.stderrText += d; });
        // The client hands the negotiated version to transports that want it; stdio does not,
        // so this hook is the one place the client tells us what it agreed to.
        transport.setProtocolVersion = (v) => { this.protocolVersion = v; };
        const send = transport.send.bind(transport);
        transport.send = (message, options) => {
            this.sent.push(message);
            return send(message, options);
        };
        this.transport = transport;
        this.client = new Client({ name: clientName, version: '0.0.1' });
        await this.client.connect(transport);
        // Record what arrives after the handshake (the client set onmessage in connect()).
        const onmessage = transport.onmessage;
        transport.onmessage = (message, extra) => {
            this.received.push(message);
            onmessage(message, extra);
        };
        this.client.onerror = (err) => { this.clientErrors.push(err); };
        return this;
    }

    async call(name, args = {}, options = undefined) {
        return this.client.callTool({ name, arguments: args }, undefined, options);
    }

    // A call that must succeed; returns structuredContent and the result.
    async ok(name, args = {}) {
        const result = await this.call(name, args);
        if (result.isError)
            throw new Error(`${name} ${JSON.stringify(args)} failed: ${firstLine(result)}`);
        if (!result.structuredContent || result.structuredContent.ok !== true)
            throw new Error(`${name} returned no ok structuredContent: ${JSON.stringify(result).slice(0, 400)}`);
        return { data: result.structuredContent, result, text: textOf(result) };
    }

    // A call that must fail with `code`; checks the envelope and the text form (contract §2.1).
    async fails(name, args, code) {
        const result = await this.call(name, args);
        if (!result.isError)
            throw new Error(`${name} ${JSON.stringify(args)} should fail with ${code}: ${firstLine(result)}`);
        const sc = result.structuredContent;
        if (!validateEnvelope(sc))
            throw new Error(`bad error envelope ${JSON.stringify(sc)}: ${ajv.errorsText(validateEnvelope.errors)}`);
        if (sc.error.code !== code)
            throw new Error(`${name} failed with ${sc.error.code} (${sc.error.message}), expected ${code}`);
        const text = textOf(result);
        const prefix = `${code}: ${sc.error.message} [retry: ${sc.error.disposition.retry}] ${sc.error.suggestion}`;
        if (!text.startsWith(prefix))
            throw new Error(`error text ${JSON.stringify(text)} does not start with ${JSON.stringify(prefix)}`);
        return { error: sc.error, result, text };
    }

    // A full read of one app's only window; rows by name.
    async read(app, extra = {}) {
        const { data, text } = await this.ok('get_window_state', { app, ...extra });
        return { ...data, text };
    }

    auditLines() {
        if (!existsSync(this.auditLog))
            return [];
        return readFileSync(this.auditLog, 'utf8').split('\n').filter((l) => l.length > 0);
    }

    async close() {
        try {
            await this.client?.close();
        } finally {
            rmSync(this.tmp, { recursive: true, force: true });
        }
    }
}

export async function startDriver(clientName, args = DRIVER_ARGS) {
    const d = new Driver();
    try {
        await d.start(clientName, args);
    } catch (err) {
        await d.close().catch(() => {});
        throw new Error(`${err.message}\n--- driver stderr ---\n${d.stderrText}`);
    }
    return d;
}

// Runs `fn` with a fresh driver and closes it whatever happens. With `session`, a session for
// every app is started first.
export async function withDriver(fn, { session = false, clientName = 'e2e' } = {}) {
    const d = await startDriver(clientName);
    try {
        if (session)
            await d.ok('start_session', {});
        return await fn(d);
    } catch (err) {
        if (d.stderrText)
            err.message += `\n--- driver stderr ---\n${d.stderrText}`;
        throw err;
    } finally {
        await d.close();
    }
}

// The one row named `name` (full reads carry name, skeleton rows carry label).
export function row(rows, name) {
    const found = rows.filter((r) => (r.name ?? r.label) === name);
    if (found.length !== 1)
        throw new Error(`expected one row named ${JSON.stringify(name)}, found ${found.length}`);
    return found[0];
}
