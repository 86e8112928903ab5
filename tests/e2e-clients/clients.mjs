// The clients and programs the era tests combine: the 2025-11-25 SDK (@modelcontextprotocol/sdk
// 1.32.x, initialize), the 2026-07-28 client (@modelcontextprotocol/client 2.x, pinned to the
// modern revision or negotiating with server/discover), against nish-driver on the mock backend
// and shuttle mcp in front of a mock daemon. Each combination is one uniform handle, so a test
// states what must hold in every era once.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';

import { Sandbox } from '../e2e-shuttle/helpers.mjs';

export { textOf } from '../e2e-shuttle/helpers.mjs';

export const DRIVER_BIN =
    process.env.NISH_DRIVER_BIN || fileURLToPath(new URL('../../build/bin/nish-driver', import.meta.url));
export const SHUTTLE_BIN =
    process.env.SHUTTLE_BIN || fileURLToPath(new URL('../../build/bin/shuttle', import.meta.url));
export const INSPECTOR_BIN = fileURLToPath(new URL('./node_modules/.bin/inspector', import.meta.url));

export const LEGACY = '2025-11-25';
export const MODERN = '2026-07-28';

// How each client generation connects. `era` is the revision the connection must end up on.
export const CLIENT_KINDS = [
    { name: 'sdk 1.32 (initialize)', era: LEGACY, make: legacyClient },
    { name: 'client 2.x pinned to 2026-07-28', era: MODERN, make: (p) => modernClient(p, { pin: MODERN }) },
    { name: 'client 2.x negotiating (auto)', era: MODERN, make: (p) => modernClient(p, 'auto') },
];

function legacyClient(params) {
    const transport = new LegacyStdio({ ...params, stderr: 'pipe' });
    let version;
    // The 1.x client tells transports the version it agreed to through this hook.
    transport.setProtocolVersion = (v) => { version = v; };
    const client = new LegacyClient({ name: 'era-e2e', version: '0.0.1' });
    return {
        transport,
        client,
        connect: () => client.connect(transport),
        version: () => version,
        call: (name, args = {}, options = undefined) => client.callTool({ name, arguments: args }, undefined, options),
    };
}

function modernClient(params, mode) {
    const transport = new ModernStdio({ ...params, stderr: 'pipe' });
    const client = new ModernClient({ name: 'era-e2e', version: '0.0.1' }, { versionNegotiation: { mode } });
    return {
        transport,
        client,
        connect: () => client.connect(transport),
        version: () => client.getNegotiatedProtocolVersion(),
        call: (name, args = {}, options = undefined) => client.callTool({ name, arguments: args }, options),
    };
}

// A program under test: where it runs from, and what it needs around it.
export const PROGRAMS = [
    {
        name: 'nish-driver',
        async start() {
            const tmp = mkdtempSync(path.join(tmpdir(), 'nish-eras-'));
            const env = { NISH_AUDIT_LOG: path.join(tmp, 'audit.jsonl') };
            for (const k of ['PATH', 'HOME'])
                if (process.env[k] !== undefined)
                    env[k] = process.env[k];
            return {
                params: { command: DRIVER_BIN, args: ['mcp', '--backend', 'mock', '--consent', 'auto'], env },
                close: async () => rmSync(tmp, { recursive: true, force: true }),
            };
        },
    },
    {
        name: 'shuttle mcp',
        async start() {
            const box = new Sandbox();
            await box.startDaemon();
            return { params: { command: SHUTTLE_BIN, args: ['mcp'], env: box.env() }, close: () => box.close() };
        },
    },
];

// Runs fn(handle, program) with one client of `kind` connected to a fresh `program`.
export async function withConnection(program, kind, fn) {
    const running = await program.start();
    const handle = kind.make(running.params);
    let stderr = '';
    handle.transport.stderr?.on('data', (d) => { stderr += d; });
    try {
        await handle.connect();
        await fn(handle, running);
    } catch (err) {
        err.message += stderr ? `\n--- ${program.name} stderr:\n${stderr}` : '';
        throw err;
    } finally {
        await handle.client.close().catch(() => {});
        await running.close();
    }
}

// Runs the Inspector's CLI against a program; resolves {code, stdout, stderr}.
export function inspector(params, args) {
    return new Promise((resolve) => {
        const child = spawn(INSPECTOR_BIN, ['--cli', ...Object.entries(params.env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
            params.command, ...params.args, ...args], { env: { ...process.env, ...params.env } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => { stdout += d; });
        child.stderr.on('data', (d) => { stderr += d; });
        child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });
}
