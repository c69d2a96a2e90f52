// The module's side of the differential test (tests/wasm.rs): one request a
// line on standard input, {"method", "path", "body"}; one answer a line on
// standard output, {"status", "body"}, in order.
import { createInterface } from 'node:readline';
import { respond } from '../faan.js';

const out = [];
for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (!line) continue;
  const { method, path, body } = JSON.parse(line);
  const a = await respond(method, path, body);
  out.push(JSON.stringify({ status: a.status, body: a.body }));
  if (out.length >= 256) process.stdout.write(`${out.splice(0).join('\n')}\n`);
}
if (out.length) process.stdout.write(`${out.join('\n')}\n`);
