// run.mjs against the real daemon: `shuttle daemon --backend mock` on a private socket, and a script
// that lists the windows through the desk global.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { SHUTTLE_BIN, ScriptRun, tempDir } from './helpers.mjs';

// `shuttle daemon --backend mock`, resolved once it says it listens.
async function startDaemon(dir) {
    const socket = path.join(dir, 'desk.sock');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SHUTTLE_SOCKET: socket, SHUTTLE_CONFIG: path.join(dir, 'config.toml') };
    const child = spawn(SHUTTLE_BIN, ['daemon', '--backend', 'mock'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the daemon did not start: ${stderr}`)), 10000);
        child.stderr.on('data', (d) => {
            stderr += d;
            if (stderr.includes('listening on')) {
                clearTimeout(timer);
                resolve();
            }
        });
        child.on('exit', (code) => {
            clearTimeout(timer);
            reject(new Error(`the daemon exited with ${code}: ${stderr}`));
        });
    });
    child.removeAllListeners('exit');
    const stop = async () => {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await exited;
    };
    return { socket, stop };
}

test('a script lists the windows of the real daemon', { skip: !existsSync(SHUTTLE_BIN) && `no shuttle at ${SHUTTLE_BIN}` }, async () => {
    const temp = tempDir();
    const daemon = await startDaemon(temp.dir);
    const run = new ScriptRun({
        socket: daemon.socket,
        script: `
            export async function main() {
                const listed = await desk.windows();
                const refused = await desk.press('nonesuch').catch((err) => ({ tool: err.tool, text: err.deskText }));
                return { count: listed.windows.length, first: listed.windows[0]?.title, refused };
            }`,
    });
    try {
        const out = await run.run();
        assert.equal(out.code, 0, out.stderr);
        assert.equal(out.error, undefined, out.error?.message);
        assert.ok(out.result.count > 0, JSON.stringify(out.result));
        assert.equal(typeof out.result.first, 'string');
        assert.equal(out.result.refused.tool, 'desk_press');
        assert.match(out.result.refused.text, /is no node id/);
    } finally {
        run.remove();
        await daemon.stop();
        temp.remove();
    }
});
