// Splits a stream of raw D-Bus messages (dbus-monitor --binary) into one file per message, keeping
// the replies, errors and signals an app sent (not the calls, not the bus daemon's own messages), for
// the AT-SPI fuzz target's seeds (scripts/fuzz-record-atspi, docs/fuzzing.md): at most six of each
// shape (kind, body signature, a signal's member), so the seeds stay few and varied.
//
//   usage: node fuzz/split-dbus.mjs DUMP OUTDIR PREFIX

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [dump, outDir, prefix] = process.argv.slice(2);
if (!dump || !outDir || !prefix) {
    console.error('usage: node fuzz/split-dbus.mjs DUMP OUTDIR PREFIX');
    process.exit(2);
}
const MAX_SEED = 64 * 1024;
const MAX_MESSAGE = 1024 * 1024; // the fuzz target's own limit
const bytes = readFileSync(dump);
const seen = new Set(readdirSync(outDir).map((name) => createHash('sha1').update(readFileSync(join(outDir, name))).digest('hex')));
const align8 = (n) => (n + 7) & ~7;

// The string header fields of a message by code (3 member, 7 sender, 8 signature).
function fields(message, little, fieldsLength) {
    const out = {};
    let at = 16;
    const end = 16 + fieldsLength;
    while (at < end) {
        at = align8(at);
        const code = message[at];
        const sigLength = message[at + 1];
        const sig = message.toString('latin1', at + 2, at + 2 + sigLength);
        at += 3 + sigLength;
        if (sig === 's' || sig === 'o') {
            at = (at + 3) & ~3;
            const length = little ? message.readUInt32LE(at) : message.readUInt32BE(at);
            const value = message.toString('utf8', at + 4, at + 4 + length);
            out[code] = value;
            at += 4 + length + 1;
        } else if (sig === 'u') {
            at = ((at + 3) & ~3) + 4;
        } else if (sig === 'g') {
            out[code] = message.toString('latin1', at + 1, at + 1 + message[at]);
            at += 1 + message[at] + 1;
        } else {
            break;
        }
    }
    return out;
}

const PER_SHAPE = 6;
const shapes = new Map();
let kept = 0;
let n = readdirSync(outDir).filter((name) => name.startsWith(`${prefix}-`)).length;
for (let at = 0; at + 16 <= bytes.length; ) {
    const little = bytes[at] === 0x6c; // 'l'
    const read32 = (o) => (little ? bytes.readUInt32LE(at + o) : bytes.readUInt32BE(at + o));
    const bodyLength = read32(4);
    const fieldsLength = read32(12);
    const total = align8(16 + fieldsLength) + bodyLength;
    if (at + total > bytes.length) break;
    const message = bytes.subarray(at, at + total);
    at += total;
    const type = message[1]; // 1 call, 2 reply, 3 error, 4 signal
    const field = fields(message, little, fieldsLength);
    const from = field[7] ?? '';
    if (type === 1 || from === '' || from === 'org.freedesktop.DBus' || total > MAX_MESSAGE) continue;
    // A few of each shape: the kind, its body's signature and a signal's member; of a shape only
    // ever seen large (a GTK 3 app's whole cache), the first.
    const shape = `${type} ${field[8] ?? ''} ${field[3] ?? ''}`;
    const count = shapes.get(shape) ?? 0;
    if (count >= PER_SHAPE || (total > MAX_SEED && count > 0)) continue;
    shapes.set(shape, count + 1);
    const hash = createHash('sha1').update(message).digest('hex');
    if (seen.has(hash)) continue;
    seen.add(hash);
    writeFileSync(join(outDir, `${prefix}-${String(++n).padStart(4, '0')}`), message);
    ++kept;
}
console.log(`${prefix}: kept ${kept} messages`);
