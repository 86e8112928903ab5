// The `desk` object a script sees: one async function per desk verb, built from the verb
// declarations in verbs.generated.mjs (written by nish-docgen from the daemon's own declarations,
// so the functions cannot drift from what the daemon serves), desk.model.decide, .ask and .ground for
// the model tools (the daemon calls the model: a script never holds the key), and desk.call for any
// tool by name.
//
// A verb function takes either one plain object of arguments, or the verb's required arguments
// in declaration order followed by an optional plain object of further ones:
//
//     desk.press('s3:17')                       // {id: 's3:17'}
//     desk.find('check', {role: 'push_button'}) // {name: 'check', role: 'push_button'}
//     desk.snapshot({window: 'Editor'})
//
// Nothing else is checked here: the daemon checks the arguments and refuses unknown ones by name.
// A call answers the verb's result as parsed JSON; a picture comes as its image_b64: a PNG from
// desk.shot, a JPEG (image_mime "image/jpeg") from the vision verbs (desk.computer_state, ...).

import { MODELS, VERBS } from './verbs.generated.mjs';
import { DeskError } from './wire.mjs';

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isPlainObject(value) {
    if (value === null || typeof value !== 'object')
        return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
}

/**
 * The arguments object of one verb call from the values the script passed.
 * @param {{tool: string, verb: string, args: {name: string, required: boolean}[]}} def
 * @param {unknown[]} values
 * @returns {Record<string, unknown>}
 */
export function argumentsOf(def, values) {
    if (values.length === 0)
        return {};
    if (values.length === 1 && isPlainObject(values[0]))
        return { ...values[0] };
    const required = def.args.filter((a) => a.required).map((a) => a.name);
    let positional = values;
    /** @type {Record<string, unknown>} */
    let more = {};
    if (values.length === required.length + 1 && isPlainObject(values.at(-1))) {
        positional = values.slice(0, -1);
        more = /** @type {Record<string, unknown>} */ (values.at(-1));
    }
    if (positional.length > required.length) {
        const takes = required.length === 0 ? 'no positional arguments' : `(${required.join(', ')}) positionally`;
        const path = def.tool.startsWith('model_') ? `desk.model.${def.verb}` : `desk.${def.verb}`;
        throw new TypeError(`${path} takes ${takes}, then at most one object of further arguments`);
    }
    /** @type {Record<string, unknown>} */
    const args = { ...more };
    positional.forEach((value, i) => { args[required[i]] = value; });
    return args;
}

/**
 * A response's text as JSON, or the text itself when it is not JSON; with its picture attached.
 * @param {import('./wire.mjs').WireResponse} response
 */
export function resultOf(response) {
    let result;
    try {
        result = JSON.parse(response.text);
    } catch {
        return response.text;
    }
    if (response.image_b64 !== undefined && result !== null && typeof result === 'object')
        result.image_b64 = response.image_b64;
    if (response.image_mime !== undefined && result !== null && typeof result === 'object')
        result.image_mime = response.image_mime;
    return result;
}

/** How long desk.look's question may take: a look is a glance, not a deliberation. */
export const LOOK_QUESTION_TIMEOUT_MS = 5000;

/**
 * desk.look, which also takes a yes/no question about what it sees: the picture then goes to the
 * verify model (model_decide with the image, timeout_ms 5000) and the answer's probability comes
 * back beside it as `answer`, with served and usage. Without question it is the verb itself.
 * @param {Function} look the verb's function
 * @param {Function} decide desk.model.decide
 */
export function lookWithQuestion(look, decide) {
    const fn = async (/** @type {any} */ args = {}) => {
        if (args === null || typeof args !== 'object' || args.question === undefined)
            return look(args);
        const { question, ...rest } = args;
        if (typeof question !== 'string' || question.trim() === '')
            throw new TypeError('desk.look: question must be a yes/no question as text, e.g. "Is a dialog open?"');
        const seen = await look(rest);
        const url = `data:${seen.image_mime ?? 'image/png'};base64,${seen.image_b64}`;
        const decided = await decide({
            state: [{ type: 'text', text: 'The screen as it is now.' }, { type: 'image_url', image_url: { url } }],
            questions: { answer: { type: 'noul', instructions: question } },
            image: true,
            timeout_ms: LOOK_QUESTION_TIMEOUT_MS,
        });
        return { ...seen, answer: decided.answers?.answer?.probability, served: decided.served, usage: decided.usage };
    };
    Object.defineProperty(fn, 'name', { value: 'look' });
    return fn;
}

/**
 * Builds the desk object over a wire client.
 * @param {{call: (tool: string, args?: object) => Promise<import('./wire.mjs').WireResponse>}} wire
 * @param {typeof VERBS} [verbs] the declarations (the generated ones unless a test passes others)
 */
export function makeDesk(wire, verbs = VERBS, models = MODELS) {
    /**
     * One function per declaration, on `target`.
     * @param {Record<string, unknown>} target
     * @param {typeof VERBS} defs
     */
    const addAll = (target, defs) => {
        for (const def of defs) {
            const fn = async (/** @type {unknown[]} */ ...values) => resultOf(await wire.call(def.tool, argumentsOf(def, values)));
            Object.defineProperty(fn, 'name', { value: def.verb });
            target[def.verb] = fn;
        }
    };
    /** @type {Record<string, unknown>} */
    const desk = {};
    addAll(desk, verbs);
    /** @type {Record<string, unknown>} */
    const model = {};
    addAll(model, models);
    desk.model = Object.freeze(model);
    if (typeof desk.look === 'function' && typeof model.decide === 'function')
        desk.look = lookWithQuestion(/** @type {Function} */ (desk.look), /** @type {Function} */ (model.decide));
    /**
     * Any wire tool by its raw name ("desk_windows"): the parsed JSON, or the raw text when the
     * answer is not JSON.
     * @param {string} tool
     * @param {Record<string, unknown>} [args]
     */
    desk.call = async (tool, args = {}) => {
        if (typeof tool !== 'string' || tool === '')
            throw new TypeError('desk.call takes the tool name first, e.g. desk.call("desk_windows")');
        return resultOf(await wire.call(tool, args));
    };
    return Object.freeze(desk);
}

export { DeskError, MODELS, VERBS };
