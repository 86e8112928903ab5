// run.mjs against the real daemon: `shuttle daemon --backend mock` on a private socket, and a script
// that lists the windows through the desk global.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { startShuttleDaemon } from '../e2e-shuttle/start_daemon.mjs';
import { SHUTTLE_BIN, ScriptRun, tempDir } from './helpers.mjs';

// `shuttle daemon --backend mock` on a socket in `dir`, with a stop function.
async function startDaemon(dir) {
    const socket = path.join(dir, 'desk.sock');
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, SHUTTLE_SOCKET: socket, SHUTTLE_CONFIG: path.join(dir, 'config.toml') };
    const child = await startShuttleDaemon(SHUTTLE_BIN, env);
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
