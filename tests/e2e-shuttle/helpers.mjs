// Fixtures for the end-to-end tests of `shuttle mcp` through the real MCP TypeScript SDK client:
// a `shuttle daemon --backend mock` on a private socket, the MCP front as the SDK's stdio child,
// and a fake daemon (a unix socket server speaking the wire) that can hold a call open, so a
// cancel can be watched from the daemon's side.
//
// Every test makes its own temporary directory, daemon and client, and removes them.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { startShuttleDaemon } from './start_daemon.mjs';

// The binary under test: $SHUTTLE_BIN, else the default build tree of this checkout.
export const SHUTTLE_BIN =
    process.env.SHUTTLE_BIN || fileURLToPath(new URL('../../build/bin/shuttle', import.meta.url));
// The test programs built beside it (the test service, the fake model endpoint): tests/ of the same build.
export const BUILD_TESTS_DIR = path.join(path.dirname(SHUTTLE_BIN), '..', 'tests');

export function textOf(result) {
    return result.content.filter((b) => b.type === 'text').map((b) => b.text).join('\n');
}

// A private directory for one test: the socket and a config path (absent: the defaults).
export class Sandbox {
    constructor() {
        this.dir = mkdtempSync(path.join(tmpdir(), 'shuttle-e2e-'));
        this.socket = path.join(this.dir, 'desk.sock');
        this.config = path.join(this.dir, 'config.toml');
        this.children = [];
        this.clients = [];
    }

    // The environment of every shuttle process. The SDK's stdio transport passes only a few
    // variables of its own accord, so the socket and config go in explicitly.
    env() {
        const env = { SHUTTLE_SOCKET: this.socket, SHUTTLE_CONFIG: this.config };
        for (const k of ['PATH', 'HOME'])
            if (process.env[k] !== undefined)
                env[k] = process.env[k];
        return env;
    }

    // `shuttle daemon --backend mock`, resolved once it says it listens.
    // extraEnv: more variables for the daemon (and so for the scripts it runs); backend: mock, or
    // linux on a desktop.
    async startDaemon(extraEnv = {}, backend = 'mock') {
        const child = await startShuttleDaemon(SHUTTLE_BIN, { ...this.env(), ...extraEnv }, backend);
        this.children.push(child);
        return child;
    }

    // `shuttle mcp` behind the SDK client. `received` records every message after the handshake.
    // cwd: the MCP server's working directory (the agent's, against which script_run resolves a path).
    // args: shuttle's arguments (['mcp'] unless a test starts it as a client config says).
    async startMcp({ cwd, args = ['mcp'] } = {}) {
        const transport = new StdioClientTransport({ command: SHUTTLE_BIN, args, env: this.env(), stderr: 'pipe', cwd });
        const session = { stderr: '', received: [], sent: [], errors: [] };
        transport.stderr?.on('data', (d) => { session.stderr += d; });
        const send = transport.send.bind(transport);
        transport.send = (message, options) => {
            session.sent.push(message);
            return send(message, options);
        };
        const client = new Client({ name: 'shuttle-e2e', version: '0.0.1' });
        await client.connect(transport);
        const onmessage = transport.onmessage;
        transport.onmessage = (message, extra) => {
            session.received.push(message);
            onmessage(message, extra);
        };
        client.onerror = (err) => { session.errors.push(err); };
        this.clients.push(client);
        session.client = client;
        session.call = (name, args = {}, options = undefined) => client.callTool({ name, arguments: args }, undefined, options);
        return session;
    }

    // Runs the shuttle CLI (`shuttle stop`, `shuttle desk ...`): { code, stdout, stderr }.
    run(args) {
        return new Promise((resolve) => {
            const child = spawn(SHUTTLE_BIN, args, { env: this.env() });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d) => { stdout += d; });
            child.stderr.on('data', (d) => { stderr += d; });
            child.on('exit', (code) => resolve({ code, stdout, stderr }));
        });
    }

    async close() {
        for (const client of this.clients)
            await client.close().catch(() => {});
        for (const child of this.children) {
            if (child.exitCode === null && child.signalCode === null) {
                const exited = new Promise((resolve) => child.on('exit', resolve));
                child.kill('SIGTERM');
                await exited;
            }
        }
        rmSync(this.dir, { recursive: true, force: true });
    }
}

export async function withSandbox(fn) {
    const box = new Sandbox();
    try {
        await fn(box);
    } finally {
        await box.close();
    }
}

// A stand-in daemon on `socketPath`: reads each connection's request frame (a 4-byte big-endian
// length, then JSON) and, while `reply` is null, holds the call open; `ended` counts the held
// connections the client closed.
export class FakeDaemon {
    constructor(socketPath) {
        this.requests = [];
        this.ended = 0;
        this.reply = null;
        this.waiters = [];
        this.sockets = new Set();
        this.server = net.createServer((socket) => this.#serve(socket));
        this.listening = new Promise((resolve) => this.server.listen(socketPath, resolve));
    }

    #serve(socket) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        let buffer = Buffer.alloc(0);
        let answered = false;
        socket.on('data', (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            if (buffer.length < 4 || buffer.length < 4 + buffer.readUInt32BE(0))
                return;
            const size = buffer.readUInt32BE(0);
            this.requests.push(JSON.parse(buffer.subarray(4, 4 + size).toString('utf8')));
            buffer = buffer.subarray(4 + size);
            if (this.reply) {
                const payload = Buffer.from(JSON.stringify(this.reply), 'utf8');
                const header = Buffer.alloc(4);
                header.writeUInt32BE(payload.length, 0);
                socket.write(Buffer.concat([header, payload]));
                answered = true;
            }
            this.#notify();
        });
        socket.on('end', () => {
            if (!answered)
                this.ended += 1;
            socket.end();
            this.#notify();
        });
        socket.on('error', () => {});
    }

    #notify() {
        for (const w of this.waiters.splice(0))
            w();
    }

    // Resolves once `predicate()` holds; rejects after `ms`.
    until(predicate, ms = 5000, what = 'the fake daemon') {
        return new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`${what}: timed out`)), ms);
            const check = () => {
                if (predicate()) {
                    clearTimeout(timer);
                    resolve();
                } else {
                    this.waiters.push(check);
                }
            };
            check();
        });
    }

    close() {
        for (const socket of this.sockets)
            socket.destroy();
        return new Promise((resolve) => this.server.close(resolve));
    }
}
