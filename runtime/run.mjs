// The entry module of a script run (docs/runtime.md): the shuttle daemon starts
// `node <bin>/runtime/run.mjs` with the run's environment, and this module gives the script the
// global `desk`, imports it, calls its exported main(params) and leaves exactly one outcome file in
// the run directory:
//
//   result.json   main's return value as JSON (undefined as null)
//   error.json    {"kind": "import" | "no_main" | "exception", "message": "..."}
//
// Both are written atomically (a temporary name in the run directory, then a rename), and the
// process then exits 0 once stdout and stderr are flushed, even when the script left timers or
// sockets open. A failure to write the outcome exits 1.
//
// SIGTERM (a timeout, a stop or a cancel) runs the script's own SIGTERM handlers, rejects every desk
// call not yet answered, and exits 143 one second later; no outcome file is written.

import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const TERM_GRACE_MS = 1000;
const TERM_EXIT_CODE = 143;

const runDir = process.env.SHUTTLE_RUN;
const scriptPath = process.env.SHUTTLE_SCRIPT;
/** @type {{close: (reason?: string) => void} | null} */
let wire = null;
let terminated = false;
let settled = false;
/** @type {unknown} the last error that escaped the script (an uncaught throw or rejection) */
let escaped;

/**
 * Writes one outcome file atomically. Synchronous, so the exit handler below can use it too.
 * @param {string} name "result.json" or "error.json"
 * @param {string} json
 */
function writeOutcome(name, json) {
    settled = true;
    const temporary = path.join(runDir, `.${name}.${process.pid}.tmp`);
    writeFileSync(temporary, json + '\n', { mode: 0o600 });
    renameSync(temporary, path.join(runDir, name));
}

/**
 * A failure's text: its stack (which starts with its message) when it has one.
 * @param {unknown} err
 */
function describe(err) {
    if (err instanceof Error)
        return err.stack || String(err);
    return String(err);
}

/** A failure of the run, before or inside main. */
class RunFailure {
    /**
     * @param {'import' | 'no_main' | 'exception' | 'exit'} kind
     * @param {string} message
     */
    constructor(kind, message) {
        this.kind = kind;
        this.message = message;
    }
}

/** The run's parameters: params.json in the run directory, {} when there is none. */
function readParams() {
    let text;
    try {
        text = readFileSync(path.join(runDir, 'params.json'), 'utf8');
    } catch (err) {
        if (err.code === 'ENOENT')
            return {};
        throw new RunFailure('import', `params.json cannot be read: ${err.message}`);
    }
    try {
        return JSON.parse(text);
    } catch (err) {
        throw new RunFailure('import', `params.json is not JSON: ${err.message}`);
    }
}

/** Sets globalThis.desk; a runtime that does not load is an import failure. */
async function installDesk() {
    try {
        const { WireClient } = await import('./wire.mjs');
        const { makeDesk } = await import('./desk.mjs');
        wire = new WireClient();
        globalThis.desk = makeDesk(wire);
    } catch (err) {
        throw new RunFailure('import', `the desk API did not load: ${describe(err)}`);
    }
}

/**
 * A syntax error's text with its place. Node does not give an ES module's syntax error a location
 * in its stack, so the script is checked again with `node --check`, which prints the file, line and
 * a caret; when the script itself is sound the error is in a module it imports.
 * @param {SyntaxError} err
 */
function syntaxErrorText(err) {
    const check = spawnSync(process.execPath, ['--check', scriptPath], { encoding: 'utf8' });
    if (check.status === 0 || !check.stderr)
        return `${describe(err)}\n(in a module the script imports)`;
    return check.stderr.split('\n').filter((line) => !/^\s+at |^Node\.js v/.test(line)).join('\n').trim();
}

/** The script's main function. */
async function importMain() {
    if (!scriptPath)
        throw new RunFailure('import', 'SHUTTLE_SCRIPT does not name the script to run');
    let module;
    try {
        module = await import(pathToFileURL(path.resolve(scriptPath)).href);
    } catch (err) {
        throw new RunFailure('import', err instanceof SyntaxError ? syntaxErrorText(err) : describe(err));
    }
    if (typeof module.main === 'function')
        return module.main;
    if ('main' in module)
        throw new RunFailure('no_main', `the script's export main is ${typeof module.main}, not a function`);
    const names = Object.keys(module);
    const exported = names.length === 0 ? 'exports nothing' : `exports only ${names.join(', ')}`;
    throw new RunFailure('no_main', `the script has no exported function main (it ${exported}); write: export async function main(params) { ... }`);
}

/** @param {RunFailure} failure */
function errorJson(failure) {
    return JSON.stringify({ kind: failure.kind, message: failure.message });
}

/** Runs the script and returns the outcome: [file name, JSON text]. */
async function run() {
    try {
        const params = readParams();
        await installDesk();
        const main = await importMain();
        let value;
        try {
            value = await main(params);
        } catch (err) {
            throw new RunFailure('exception', describe(err));
        }
        try {
            return ['result.json', JSON.stringify(value === undefined ? null : value) ?? 'null'];
        } catch (err) {
            throw new RunFailure('exception', `main's result cannot be saved as JSON: ${err.message}`);
        }
    } catch (err) {
        const failure = err instanceof RunFailure ? err : new RunFailure('exception', describe(err));
        return ['error.json', errorJson(failure)];
    }
}

/** Resolves once everything written to `stream` so far has been handed to the system. */
function flushed(stream) {
    return new Promise((resolve) => stream.write('', resolve));
}

/** Ends the process once the output is out. */
async function exit(code) {
    // Desk calls the script started and never awaited reject here; that is no failure of the run.
    process.on('unhandledRejection', () => {});
    wire?.close('the script ended');
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
}

// The process may end before main settles without a SIGTERM: the script called process.exit (kind
// exit, its code kept: Node ended without saying why), an error escaped it (a throw in a timer, a
// rejection nobody handled), or main awaits something nothing is left to settle (Node then sets
// the exit code 13); those two are the script's failures, reported as an exception.
process.on('uncaughtExceptionMonitor', (err) => { escaped = err; });
process.on('exit', (code) => {
    if (settled || terminated || !runDir)
        return;
    let failure = new RunFailure('exit', `the script called process.exit(${code}) before main returned`);
    if (process.exitCode === 13)
        failure = new RunFailure('exception', 'main never finished: it awaits a promise that nothing is left to settle');
    else if (escaped !== undefined)
        failure = new RunFailure('exception', `an error escaped the script before main returned: ${describe(escaped)}`);
    try {
        writeOutcome('error.json', errorJson(failure));
        if (failure.kind === 'exception')
            process.exitCode = 0;
    } catch (err) {
        console.error(`run.mjs: the outcome cannot be written to ${runDir}: ${describe(err)}`);
    }
});

process.on('SIGTERM', () => {
    terminated = true;
    wire?.close('the run was stopped (SIGTERM: a timeout, a stop or a cancel)');
    setTimeout(() => exit(TERM_EXIT_CODE), TERM_GRACE_MS);
});

if (!runDir) {
    console.error('run.mjs: SHUTTLE_RUN does not name the run directory');
    process.exitCode = 2;
} else {
    const [name, json] = await run();
    if (!terminated) {
        try {
            writeOutcome(name, json);
            await exit(0);
        } catch (err) {
            console.error(`run.mjs: the outcome cannot be written to ${runDir}: ${describe(err)}`);
            await exit(1);
        }
    }
}
