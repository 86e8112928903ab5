// gui_plan's executor (docs/gui-plan.md): a plan is JSON a model writes instead of a script. The
// daemon runs this module as a script (run.mjs imports it and calls main({plan})), so a plan gets
// the same process, timeout, stop and desk ownership as script_run.
//
//   {"steps": [
//      {"id": "box", "do": "find", "args": {"name": "Check", "window": "Widget Factory"},
//       "expect": {"path": "nodes", "count_at_least": 1}},
//      {"do": "press", "args": {"id": "$box.nodes[0].id"}},
//      {"id": "after", "do": "read", "args": {"id": "$box.nodes[0].id"},
//       "expect": {"path": "states", "contains": "checked"}, "retry": {"times": 5, "delay_ms": 200}}],
//    "result": "$after"}
//
// The whole plan is checked before its first step runs; a step that fails (the desk refuses it, or
// its expectation does not hold after its retries) ends the plan, naming the step and the reason.
// main answers {ok: true, result, steps}, {ok: false, invalid: {step?, reason}, steps: 0} for a plan
// that did not pass its check (nothing ran), or {ok: false, failed: {step, id?, do, reason,
// attempts}, steps} for a step that failed; the daemon turns the last two into errors.

import { VERBS } from './verbs.generated.mjs';

const LIMITS = { steps: 100, retries: 20, delay_ms: 10000, sleep_ms: 30000 };
const STEP_KEYS = new Set(['id', 'do', 'args', 'expect', 'retry', 'note']);
const EXPECT_KEYS = new Set(['path', 'equals', 'contains', 'exists', 'matches', 'count_at_least']);
const ID = /^[a-z_][a-z0-9_]*$/;
// A reference: $id, then .name or [n] or [*] parts.
const REFERENCE = /^\$([a-z_][a-z0-9_]*)((?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:\d+|\*)\])*)$/;
const PATH = /^(?:[A-Za-z_][A-Za-z0-9_]*|\[(?:\d+|\*)\])(?:\.[A-Za-z_][A-Za-z0-9_]*|\[(?:\d+|\*)\])*$/;

/** A plan that cannot run, or a step that failed: the message names where. */
export class PlanError extends Error {
    /**
     * @param {string} message
     * @param {Record<string, unknown>} [where]
     */
    constructor(message, where = {}) {
        super(message);
        this.where = where;
    }
}

/** @param {unknown} v */
function isObject(v) {
    return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Splits a path ("nodes[0].id", "[2]", "windows[*].title") into its parts.
 * @param {string} path
 * @returns {(string | number | '*')[]}
 */
function partsOf(path) {
    /** @type {(string | number | '*')[]} */
    const parts = [];
    for (const m of path.matchAll(/([A-Za-z_][A-Za-z0-9_]*)|\[(\d+|\*)\]/g))
        parts.push(m[1] !== undefined ? m[1] : m[2] === '*' ? '*' : Number(m[2]));
    return parts;
}

/**
 * The value at a path; `[*]` maps the rest of the path over an array. Missing parts give undefined.
 * @param {unknown} value
 * @param {(string | number | '*')[]} parts
 * @returns {unknown}
 */
export function valueAt(value, parts) {
    if (parts.length === 0)
        return value;
    const [head, ...rest] = parts;
    if (head === '*')
        return Array.isArray(value) ? value.map((item) => valueAt(item, rest)) : undefined;
    if (value === null || typeof value !== 'object')
        return undefined;
    return valueAt(/** @type {any} */ (value)[head], rest);
}

/**
 * Every reference in a value (strings that start with one "$"); "$$" escapes a literal "$".
 * @param {unknown} value
 * @param {(ref: {id: string, parts: (string | number | '*')[], text: string}) => void} found
 */
function eachReference(value, found) {
    if (typeof value === 'string') {
        if (value.startsWith('$') && !value.startsWith('$$')) {
            const m = REFERENCE.exec(value);
            if (!m)
                throw new PlanError(`${JSON.stringify(value)} is not a reference ($id, then .name, [n] or [*] parts; write $$ for a literal $)`);
            found({ id: m[1], parts: partsOf(m[2].replace(/^\./, '')), text: value });
        }
    } else if (Array.isArray(value)) {
        value.forEach((item) => eachReference(item, found));
    } else if (isObject(value)) {
        Object.values(/** @type {object} */ (value)).forEach((item) => eachReference(item, found));
    }
}

/**
 * A value with its references replaced by what they name.
 * @param {unknown} value
 * @param {Map<string, unknown>} results
 * @returns {unknown}
 */
export function resolve(value, results) {
    if (typeof value === 'string') {
        if (value.startsWith('$$'))
            return value.slice(1);
        if (!value.startsWith('$'))
            return value;
        const m = /** @type {RegExpExecArray} */ (REFERENCE.exec(value));
        const found = valueAt(results.get(m[1]), partsOf(m[2].replace(/^\./, '')));
        if (found === undefined)
            throw new PlanError(`${value} names nothing in step ${m[1]}'s result`);
        return found;
    }
    if (Array.isArray(value))
        return value.map((item) => resolve(item, results));
    if (isObject(value))
        return Object.fromEntries(Object.entries(/** @type {object} */ (value)).map(([k, v]) => [k, resolve(v, results)]));
    return value;
}

/**
 * Checks a whole plan before anything runs; throws a PlanError naming the step and the field.
 * @param {unknown} plan
 */
export function checkPlan(plan) {
    if (!isObject(plan))
        throw new PlanError('the plan must be an object: {"steps": [...], "result"?: ...}');
    for (const key of Object.keys(/** @type {object} */ (plan)))
        if (key !== 'steps' && key !== 'result')
            throw new PlanError(`the plan has an unknown field ${JSON.stringify(key)} (it takes steps and result)`);
    const steps = /** @type {any} */ (plan).steps;
    if (!Array.isArray(steps) || steps.length === 0 || steps.length > LIMITS.steps)
        throw new PlanError(`steps must be a list of 1 to ${LIMITS.steps} steps`);
    const known = new Map(VERBS.map((v) => [v.verb, v]));
    const ids = new Set();
    steps.forEach((step, index) => {
        const where = { step: index + 1 };
        const at = (what) => `step ${index + 1}${isObject(step) && step.id ? ` (${step.id})` : ''}: ${what}`;
        if (!isObject(step))
            throw new PlanError(at('must be an object {do, args?, id?, expect?, retry?}'), where);
        for (const key of Object.keys(step))
            if (!STEP_KEYS.has(key))
                throw new PlanError(at(`unknown field ${JSON.stringify(key)} (a step takes ${[...STEP_KEYS].join(', ')})`), where);
        if (step.do !== 'sleep' && !known.has(step.do))
            throw new PlanError(at(`do must be a desk verb (${[...known.keys()].join(', ')}) or sleep`), where);
        if (step.args !== undefined && !isObject(step.args))
            throw new PlanError(at('args must be an object'), where);
        if (step.do === 'sleep') {
            const ms = step.args?.ms;
            if (!Number.isInteger(ms) || ms < 0 || ms > LIMITS.sleep_ms)
                throw new PlanError(at(`sleep takes args {ms}: 0 to ${LIMITS.sleep_ms}`), where);
        } else {
            const verb = known.get(step.do);
            for (const name of Object.keys(step.args ?? {}))
                if (!verb.args.some((a) => a.name === name))
                    throw new PlanError(at(`${step.do} has no argument ${name} (it takes ${verb.args.map((a) => a.name).join(', ') || 'none'})`), where);
            for (const arg of verb.args)
                if (arg.required && (step.args ?? {})[arg.name] === undefined)
                    throw new PlanError(at(`${step.do} needs ${arg.name}`), where);
        }
        eachReference(step.args ?? {}, (ref) => {
            if (!ids.has(ref.id))
                throw new PlanError(at(`${ref.text} names no earlier step with id ${ref.id}`), where);
        });
        if (step.expect !== undefined) {
            if (!isObject(step.expect) || Object.keys(step.expect).length === 0)
                throw new PlanError(at('expect must be an object: {path?, equals | contains | exists | matches | count_at_least}'), where);
            for (const key of Object.keys(step.expect))
                if (!EXPECT_KEYS.has(key))
                    throw new PlanError(at(`expect has an unknown field ${JSON.stringify(key)}`), where);
            if (step.expect.path !== undefined && (typeof step.expect.path !== 'string' || !PATH.test(step.expect.path)))
                throw new PlanError(at('expect.path must be a path such as nodes[0].states or windows[*].title'), where);
            if (step.expect.matches !== undefined) {
                try {
                    new RegExp(step.expect.matches);
                } catch {
                    throw new PlanError(at('expect.matches is not a regular expression'), where);
                }
            }
            if (step.expect.count_at_least !== undefined && !Number.isInteger(step.expect.count_at_least))
                throw new PlanError(at('expect.count_at_least must be an integer'), where);
        }
        if (step.retry !== undefined) {
            const r = step.retry;
            if (!isObject(r) || !Number.isInteger(r.times) || r.times < 0 || r.times > LIMITS.retries ||
                (r.delay_ms !== undefined && (!Number.isInteger(r.delay_ms) || r.delay_ms < 0 || r.delay_ms > LIMITS.delay_ms)) ||
                Object.keys(r).some((k) => k !== 'times' && k !== 'delay_ms'))
                throw new PlanError(at(`retry is {times: 0 to ${LIMITS.retries}, delay_ms?: 0 to ${LIMITS.delay_ms}}`), where);
        }
        if (step.id !== undefined) {
            if (typeof step.id !== 'string' || !ID.test(step.id) || ids.has(step.id))
                throw new PlanError(at('id must be a new name of lowercase letters, digits and _'), where);
            ids.add(step.id);
        }
    });
    eachReference(/** @type {any} */ (plan).result ?? null, (ref) => {
        if (!ids.has(ref.id))
            throw new PlanError(`result: ${ref.text} names no step with id ${ref.id}`);
    });
}

/**
 * Why a step's result does not meet its expectation, or null when it does.
 * @param {unknown} result
 * @param {Record<string, any>} expect
 */
export function unmet(result, expect) {
    const shown = (v) => { const s = JSON.stringify(v); return s === undefined ? 'nothing' : s.length > 200 ? s.slice(0, 200) + '...' : s; };
    const value = expect.path === undefined ? result : valueAt(result, partsOf(expect.path));
    const what = expect.path ?? 'the result';
    if (expect.exists !== undefined && (value !== undefined && value !== null) !== expect.exists)
        return `${what} ${expect.exists ? 'is missing' : `exists: ${shown(value)}`}`;
    if (expect.equals !== undefined && JSON.stringify(value) !== JSON.stringify(expect.equals))
        return `${what} is ${shown(value)}, not ${shown(expect.equals)}`;
    if (expect.contains !== undefined) {
        const has = Array.isArray(value) ? value.some((item) => JSON.stringify(item) === JSON.stringify(expect.contains) ||
            (typeof item === 'string' && typeof expect.contains === 'string' && item.includes(expect.contains)))
            : typeof value === 'string' && typeof expect.contains === 'string' && value.includes(expect.contains);
        if (!has)
            return `${what} (${shown(value)}) does not contain ${shown(expect.contains)}`;
    }
    if (expect.matches !== undefined && !(typeof value === 'string' && new RegExp(expect.matches).test(value)))
        return `${what} (${shown(value)}) does not match /${expect.matches}/`;
    if (expect.count_at_least !== undefined && !(Array.isArray(value) && value.length >= expect.count_at_least))
        return `${what} has ${Array.isArray(value) ? value.length : 'no list of'} items, fewer than ${expect.count_at_least}`;
    return null;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs a checked plan against a desk (`call(tool, args)` answers parsed JSON or throws).
 * @param {any} plan
 * @param {{call: (tool: string, args: object) => Promise<unknown>}} desk
 */
export async function runPlan(plan, desk) {
    checkPlan(plan);
    /** @type {Map<string, unknown>} */
    const results = new Map();
    let done = 0;
    for (const [index, step] of plan.steps.entries()) {
        const tries = 1 + (step.retry?.times ?? 0);
        let reason = '';
        let attempt = 0;
        let ok = false;
        let result;
        for (attempt = 1; attempt <= tries && !ok; attempt++) {
            if (attempt > 1)
                await sleep(step.retry?.delay_ms ?? 250);
            try {
                const args = /** @type {object} */ (resolve(step.args ?? {}, results));
                if (step.do === 'sleep') {
                    await sleep(/** @type {any} */ (args).ms);
                    result = null;
                } else {
                    result = await desk.call(`desk_${step.do}`, args);
                }
                reason = step.expect ? unmet(result, step.expect) ?? '' : '';
                ok = reason === '';
            } catch (err) {
                reason = err instanceof Error ? err.message : String(err);
            }
        }
        if (!ok)
            return { ok: false, failed: { step: index + 1, ...(step.id ? { id: step.id } : {}), do: step.do, reason, attempts: attempt - 1 }, steps: done };
        if (step.id)
            results.set(step.id, result);
        done++;
    }
    const result = plan.result === undefined ? Object.fromEntries(results) : resolve(plan.result, results);
    return { ok: true, result, steps: done };
}

/**
 * The module run.mjs calls for gui_plan: params is {plan}.
 * @param {{plan: unknown}} params
 */
export async function main(params) {
    try {
        return await runPlan(params.plan, globalThis.desk);
    } catch (err) {
        if (err instanceof PlanError)
            return { ok: false, invalid: { ...err.where, reason: err.message }, steps: 0 };
        throw err;
    }
}
