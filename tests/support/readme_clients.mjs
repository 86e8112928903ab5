// The MCP client snippets of the README's "Add it to an MCP client" section, read the way a person
// copies them: each ```json block with the line that names its client. The end-to-end tests start
// every server entry of every snippet, so a snippet that stops working fails a test.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const README = fileURLToPath(new URL('../../README.md', import.meta.url));
const SECTION = '## Add it to an MCP client';

// [{ client, config }] in README order; throws when the section or a block is malformed.
export function readmeClientSnippets() {
    const text = readFileSync(README, 'utf8');
    const start = text.indexOf(SECTION);
    if (start < 0)
        throw new Error(`README.md has no "${SECTION}" section`);
    const rest = text.slice(start + SECTION.length);
    const end = rest.search(/\n## /);
    const section = end < 0 ? rest : rest.slice(0, end);
    const snippets = [];
    const block = /([^\n]*)\n\n```json\n([\s\S]*?)\n```/g;
    for (let m; (m = block.exec(section));)
        snippets.push({ client: m[1].trim(), config: JSON.parse(m[2]) });
    return snippets;
}

// Every server entry of one client config, whichever key the client uses (mcpServers or servers):
// [{ name, command, args, type }].
export function serverEntries(config) {
    const servers = config.mcpServers ?? config.servers;
    if (!servers || typeof servers !== 'object')
        throw new Error(`a client config without mcpServers or servers: ${JSON.stringify(config)}`);
    return Object.entries(servers).map(([name, entry]) => ({ name, ...entry }));
}
