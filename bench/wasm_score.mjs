// N scores of one request by the WebAssembly module, called directly
// (faan_call, op 1 = POST /v1/score): for callgrind (bench/wasm_instructions.sh).
//   node bench/wasm_score.mjs N
import { readFileSync } from 'node:fs';

const n = Number(process.argv[2] || 1);
const bytes = readFileSync(new URL('../web/pkg/faan.wasm', import.meta.url));
const { instance } = await WebAssembly.instantiate(bytes, {});
const ex = instance.exports;
// benches/score.rs's `plain` case: all chows, self-drawn, HKMA.
const body = new TextEncoder().encode(JSON.stringify({
  ruleset: 'hkma',
  hand: { tiles: '234m567m345p22s789s', winning_tile: '2s' },
  context: { win_by: 'self_draw', seat_wind: 'south', round_wind: 'east' },
}));
const ptr = ex.faan_alloc(body.length) >>> 0;
new Uint8Array(ex.memory.buffer, ptr, body.length).set(body);
for (let i = 0; i < n; i++) {
  if (ex.faan_call(1, ptr, body.length) !== 200) throw new Error('not a 200');
}
