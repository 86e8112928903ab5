// Fixtures for the script runtime's tests: where the runtime and shuttle are, a stand-in daemon
// speaking the desk wire on a private socket, and run.mjs as a child process with a private run
// directory. Every test makes its own temporary directory and removes it.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

// The binary for the tests against the real daemon: $SHUTTLE_BIN, else this checkout's build.
export const SHUTTLE_BIN = process.env.SHUTTLE_BIN || path.join(REPO, 'build/bin/shuttle');

// The runtime under test: $SHUTTLE_RUNTIME (scripts/test passes the copy beside the binaries),
// else the checkout's runtime/.
export const RUNTIME = process.env.SHUTTLE_RUNTIME || path.join(REPO, 'runtime');

/** Imports one of the runtime's modules ("wire.mjs"). */
export function runtimeModule(name) {
    return import(pathToFileURL(path.join(RUNTIME, name)).href);
}

/** A private temporary directory, removed by `remove()`. */
export function tempDir(prefix = 'shuttle-runtime-') {
    const dir = mkdtempSync(path.join(tmpdir(), prefix));
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A stand-in daemon on `socketPath`. `answer(request)` gives each request's response object, or
 * null to hold the call open, or 'close' to close the connection.
 */
export class FakeDaemon {
    constructor(socketPath, answer = () => ({ text: '{}', is_error: false })) {
        this.requests = [];
        this.answer = answer;
        this.sockets = new Set();
        this.connections = 0;
        this.server = net.createServer((socket) => this.#serve(socket));
        this.listening = new Promise((resolve) => this.server.listen(socketPath, resolve));
    }

    #serve(socket) {
        this.connections += 1;
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
        let buffer = Buffer.alloc(0);
        socket.on('data', (chunk) => {
            buffer = Buffer.concat([buffer, chunk]);
            while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32BE(0)) {
                const size = buffer.readUInt32BE(0);
                const request = JSON.parse(buffer.subarray(4, 4 + size).toString('utf8'));
                buffer = buffer.subarray(4 + size);
                this.requests.push(request);
                const response = this.answer(request);
                if (response === 'close')
                    socket.destroy();
                else if (response !== null)
                    socket.write(frame(response));
            }
        });
    }

    close() {
        for (const socket of this.sockets)
            socket.destroy();
        return new Promise((resolve) => this.server.close(resolve));
    }
}

/** A response frame: a 4-byte big-endian length, then the JSON. */
export function frame(response) {
    const payload = Buffer.from(JSON.stringify(response), 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(payload.length, 0);
    return Buffer.concat([header, payload]);
}

/** A success response whose text is `value` as JSON. */
export function ok(value, extra = {}) {
    return { text: JSON.stringify(value), is_error: false, ...extra };
}

/**
 * A run directory with `script` (module source) and, unless undefined, params.json; `run()` starts
 * run.mjs on it and resolves with {code, signal, stdout, stderr, result, error} (the parsed outcome
 * files, or undefined).
 */
export class ScriptRun {
    constructor({ script, params, socket = '', agent = 'agent-7', scriptPath } = {}) {
        this.temp = tempDir('shuttle-run-');
        this.runDir = this.temp.dir;
        this.scriptPath = scriptPath ?? path.join(this.runDir, 'script.mjs');
        if (script !== undefined)
            writeFileSync(this.scriptPath, script);
        if (params !== undefined)
            writeFileSync(path.join(this.runDir, 'params.json'), JSON.stringify(params));
        this.env = {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            SHUTTLE_SOCKET: socket,
            SHUTTLE_AGENT: agent,
            SHUTTLE_SCRIPT: this.scriptPath,
            SHUTTLE_RUN: this.runDir,
            SHUTTLE_FLOWS: path.join(this.runDir, 'flows'),
        };
    }

    /** Starts run.mjs; `onChild(child)` sees the process (to signal it). */
    run(onChild = () => {}) {
        return new Promise((resolve) => {
            const child = spawn(process.execPath, [path.join(RUNTIME, 'run.mjs')], { env: this.env });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d) => { stdout += d; });
            child.stderr.on('data', (d) => { stderr += d; });
            child.on('close', (code, signal) => resolve({
                code, signal, stdout, stderr,
                result: this.#outcome('result.json'),
                error: this.#outcome('error.json'),
            }));
            onChild(child);
        });
    }

    #outcome(name) {
        const file = path.join(this.runDir, name);
        return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
    }

    remove() {
        this.temp.remove();
    }
}
