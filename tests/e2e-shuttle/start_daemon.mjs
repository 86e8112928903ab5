// Starts `shuttle daemon` (the mock backend unless told otherwise) for a test and resolves once it
// says it listens. Shared by
// the shuttle end-to-end tests and the script runtime's tests (tests/runtime); it needs no package.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * @param {string} bin the shuttle binary
 * @param {Record<string, string>} env the daemon's whole environment (SHUTTLE_SOCKET, SHUTTLE_CONFIG, ...)
 * @param {string} [backend] mock, or linux on a desktop
 * @returns {Promise<import('node:child_process').ChildProcess>}
 */
export async function startShuttleDaemon(bin, env, backend = 'mock') {
    if (!existsSync(bin))
        throw new Error(`shuttle not found at ${bin}: build it or set SHUTTLE_BIN`);
    const child = spawn(bin, ['daemon', '--backend', backend], { env, stdio: ['ignore', 'ignore', 'pipe'] });
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
    return child;
}
