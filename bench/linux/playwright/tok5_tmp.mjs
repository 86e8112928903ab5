import { spawnSync } from 'node:child_process';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
const bin = process.argv[2]; const args = process.argv.slice(3);
const input = [
 {jsonrpc:'2.0',id:1,method:'initialize',params:{protocolVersion:'2025-06-18',capabilities:{},clientInfo:{name:'t',version:'1'}}},
 {jsonrpc:'2.0',method:'notifications/initialized'},
 {jsonrpc:'2.0',id:2,method:'tools/list'}].map(m=>JSON.stringify(m)).join('\n')+'\n';
const r = spawnSync(bin, args, {input, env:{...process.env, NISH_AUDIT_LOG:''}});
const lines = r.stdout.toString().trim().split('\n');
const list = JSON.parse(lines[lines.length-1]).result.tools;
const sums={};
for (const t of list) for (const [k,v] of Object.entries(t)) sums[k]=(sums[k]||0)+encode(JSON.stringify(v)).length;
console.log(sums);
for (const n of (process.env.TOOLS||'').split(',')) { const t=list.find(t=>t.name===n); if (t) console.log(encode(JSON.stringify(t)).length, JSON.stringify(t)); }
