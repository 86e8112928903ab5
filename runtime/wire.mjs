// The script runtime's client of the desk wire (docs/wire.md): one connection to the shuttle
// daemon's unix socket, carrying one call at a time. Calls made while another is in flight wait
// in a queue and go out in order. A frame is a 4-byte big-endian length, then UTF-8 JSON.
//
// When the connection closes or fails (the daemon stopping, a safety stop, a protocol fault),
// every call not yet answered rejects; the next call opens a new connection. The socket holds the
// event loop only while a call is in flight, so a script that ends is never kept alive by it.

import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The largest response the daemon sends (the wire's cap); a larger frame is a protocol fault. */
export const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * A desk call that failed: the daemon answered is_error (message and deskText are its text), or
 * the connection went before it answered (deskText is then undefined).
 */
export class DeskError extends Error {
    /**
     * @param {string} message
     * @param {{tool: string, deskText?: string}} details
     */
    constructor(message, { tool, deskText }) {
        super(message);
        this.name = 'DeskError';
        /** The wire tool name of the call, e.g. "desk_press". */
        this.tool = tool;
        /** The daemon's text when it refused the call. */
        this.deskText = deskText;
    }
}

/**
 * The daemon's socket as docs/wire.md resolves it: SHUTTLE_SOCKET, else the cache directory.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string}
 */
export function socketPath(env = process.env) {
    if (env.SHUTTLE_SOCKET)
        return env.SHUTTLE_SOCKET;
    const cache = env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
        ? env.XDG_CACHE_HOME
        : path.join(os.homedir(), '.cache');
    return path.join(cache, 'loomhand', 'shuttle', 'desk.sock');
}

/**
 * @typedef {object} WireResponse
 * @property {string} text the result (JSON for the desk verbs)
 * @property {boolean} is_error
 * @property {string} [image_b64] a picture, when the call took one: a PNG unless image_mime says otherwise
 * @property {string} [image_mime] the picture's type when it is no PNG ("image/jpeg" from the vision verbs)
 */

/**
 * @typedef {object} PendingCall
 * @property {string} tool
 * @property {Buffer} frame
 * @property {(response: WireResponse) => void} resolve
 * @property {(err: Error) => void} reject
 */

export class WireClient {
    /** @type {net.Socket | null} */
    #socket = null;
    /** @type {PendingCall[]} calls waiting for the connection; the first is in flight once sent */
    #queue = [];
    #inFlight = false;
    /** @type {Buffer[]} */
    #chunks = [];
    #buffered = 0;

    /**
     * @param {{socketPath?: string, agentId?: string}} [options]
     */
    constructor({ socketPath: where = socketPath(), agentId = process.env.SHUTTLE_AGENT ?? '' } = {}) {
        this.socketPath = where;
        this.agentId = agentId;
    }

    /**
     * Sends one request and resolves with the daemon's response; an is_error response rejects
     * with a DeskError carrying the daemon's text.
     * @param {string} tool the wire tool name, e.g. "desk_windows"
     * @param {object} [args]
     * @returns {Promise<WireResponse>}
     */
    call(tool, args = {}) {
        let frame;
        try {
            frame = encodeFrame({ agent_id: this.agentId, tool, args });
        } catch (err) {
            return Promise.reject(new DeskError(`${tool}: the arguments cannot be sent as JSON: ${err.message}`, { tool }));
        }
        return new Promise((resolve, reject) => {
            this.#queue.push({ tool, frame, resolve, reject });
            this.#pump();
        });
    }

    /**
     * Ends the connection; calls not yet answered reject with `reason`.
     * @param {string} [reason]
     */
    close(reason = 'the desk client was closed') {
        this.#drop(reason);
    }

    #pump() {
        if (this.#inFlight || this.#queue.length === 0)
            return;
        const socket = this.#socket ?? this.#connect();
        this.#inFlight = true;
        socket.ref();
        socket.write(this.#queue[0].frame);
    }

    #connect() {
        const socket = net.createConnection(this.socketPath);
        this.#socket = socket;
        this.#chunks = [];
        this.#buffered = 0;
        let failure = null;
        socket.on('data', (chunk) => this.#receive(socket, chunk));
        socket.on('error', (err) => { failure = err; });
        socket.on('close', () => {
            if (this.#socket !== socket)
                return;
            const why = failure
                ? `the desk daemon at ${this.socketPath} cannot be reached: ${failure.message}`
                : 'the desk daemon closed the connection (a safety stop, or the daemon stopped)';
            this.#drop(why);
        });
        return socket;
    }

    /**
     * @param {net.Socket} socket
     * @param {Buffer} chunk
     */
    #receive(socket, chunk) {
        if (this.#socket !== socket)
            return;
        this.#chunks.push(chunk);
        this.#buffered += chunk.length;
        while (this.#buffered >= 4) {
            const data = this.#chunks.length === 1 ? this.#chunks[0] : Buffer.concat(this.#chunks);
            this.#chunks = [data];
            const size = data.readUInt32BE(0);
            if (size > MAX_RESPONSE_BYTES) {
                this.#fault(`the desk daemon sent a frame of ${size} bytes, more than the wire's ${MAX_RESPONSE_BYTES}`);
                return;
            }
            if (data.length < 4 + size)
                return;
            const payload = data.subarray(4, 4 + size);
            this.#chunks = [data.subarray(4 + size)];
            this.#buffered = data.length - 4 - size;
            if (!this.#answer(payload))
                return;
        }
    }

    /**
     * Settles the call in flight with one response frame. False when the frame is a fault and the
     * connection was dropped.
     * @param {Buffer} payload
     */
    #answer(payload) {
        if (!this.#inFlight)
            return this.#fault('the desk daemon sent a response nobody asked for');
        let response;
        try {
            response = JSON.parse(payload.toString('utf8'));
        } catch (err) {
            return this.#fault(`the desk daemon sent a response that is not JSON: ${err.message}`);
        }
        if (response === null || typeof response !== 'object' || typeof response.text !== 'string')
            return this.#fault('the desk daemon sent a response without text');
        const call = /** @type {PendingCall} */ (this.#queue.shift());
        this.#inFlight = false;
        if (response.is_error === true)
            call.reject(new DeskError(response.text, { tool: call.tool, deskText: response.text }));
        else
            call.resolve(response);
        if (this.#queue.length > 0)
            this.#pump();
        else
            this.#socket?.unref();
        return true;
    }

    /**
     * A protocol fault: the stream cannot be trusted after it.
     * @param {string} why
     * @returns {false}
     */
    #fault(why) {
        this.#drop(why);
        return false;
    }

    /**
     * Closes the connection and rejects every call not yet answered.
     * @param {string} why
     */
    #drop(why) {
        const socket = this.#socket;
        this.#socket = null;
        this.#inFlight = false;
        this.#chunks = [];
        this.#buffered = 0;
        socket?.destroy();
        for (const call of this.#queue.splice(0))
            call.reject(new DeskError(`${call.tool}: ${why}`, { tool: call.tool }));
    }
}

/**
 * One request frame: the length header, then the JSON payload.
 * @param {object} request
 * @returns {Buffer}
 */
export function encodeFrame(request) {
    const payload = Buffer.from(JSON.stringify(request), 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(payload.length, 0);
    return Buffer.concat([header, payload]);
}
