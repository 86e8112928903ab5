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
let total = 0; const per=[];
for (const t of list) { const n = encode(JSON.stringify(t)).length; total += n; per.push([n,t.name]); }
per.sort((a,b)=>b[0]-a[0]);
console.log(bin.split('/').pop(), 'tools', list.length, 'tokens', total, 'whole list', encode(JSON.stringify(list)).length);
console.log(per.slice(0,8).map(p=>p.join(' ')).join('\n'));
