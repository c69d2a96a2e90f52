// faan.js on the module in Node: node --test web/pkg/test/*.test.mjs
// The module's tests skip when web/pkg/faan.wasm is not built (build.sh).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as faan from '../faan.js';
import { declarations, openapi } from '../types.mjs';

const built = existsSync(fileURLToPath(new URL('../faan.wasm', import.meta.url)));
const skip = built ? false : 'web/pkg/faan.wasm is not built (web/pkg/build.sh)';

// The README's hand: mixed one suit 3, dragon pung 1, self-drawn 1 = 5
// faan; HKMA's base for 5 is 24 points, doubled on a self-draw: 48 from
// each of the three others.
const README_HAND = {
  ruleset: 'hkma',
  hand: { tiles: '234m567m345m99m', melds: [{ kind: 'pung', tiles: '777z' }], winning_tile: '9m' },
  context: { win_by: 'self_draw', seat_wind: 'south', round_wind: 'east' },
};

test('score resolves to the answer object (the README hand: 5 faan, 48 from each)', { skip }, async () => {
  const a = await faan.score(README_HAND);
  assert.equal(a.total_faan, 5);
  assert.deepEqual(a.lines.map((l) => [l.pattern, l.faan]).sort(),
    [['dragon_pung', 1], ['mixed_one_suit', 3], ['self_draw', 1]]);
  assert.deepEqual(a.payments, { east: -48, south: 144, west: -48, north: -48 });
});

test('a bad request rejects with status 422 and the pointer of the field', { skip }, async () => {
  const bad = { ...README_HAND, hand: { ...README_HAND.hand, winning_tile: undefined } };
  await assert.rejects(faan.score(bad), (e) => {
    assert.ok(e instanceof Error);
    assert.equal(e.status, 422);
    assert.equal(e.problem.errors[0].pointer, '/hand/winning_tile');
    return true;
  });
});

test('an unknown ruleset rejects with 404, malformed JSON with 400', { skip }, async () => {
  await assert.rejects(faan.score({ ...README_HAND, ruleset: 'nope' }),
    (e) => e.status === 404 && e.problem.errors[0].code === 'unknown_ruleset');
  await assert.rejects(faan.score('{"ruleset":'), (e) => e.status === 400);
});

test('rulesets() lists the built-in rulesets', { skip }, async () => {
  const ids = (await faan.rulesets()).rulesets.map((r) => r.id);
  for (const id of ['hkma', 'wisteria-court', 'dragon-society']) assert.ok(ids.includes(id), id);
  assert.equal(ids.length, 11);
});

test('respond answers as the server: 200, 404 path, 405 method, 413 body, HEAD', { skip }, async () => {
  const ok = await faan.respond('POST', '/v1/score', JSON.stringify(README_HAND));
  assert.equal(ok.status, 200);
  assert.equal(ok.contentType, 'application/json');
  assert.equal(JSON.parse(ok.body).total_faan, 5);
  const lost = await faan.respond('GET', '/v1/scores');
  assert.deepEqual([lost.status, lost.contentType, JSON.parse(lost.body).detail],
    [404, 'application/problem+json', 'no resource at /v1/scores']);
  assert.equal((await faan.respond('GET', '/v1/score')).status, 405);
  assert.equal((await faan.respond('POST', '/v1/score', ' '.repeat(64 * 1024 + 1))).status, 413);
  const head = await faan.respond('HEAD', '/v1/rulesets/hkma');
  assert.deepEqual([head.status, head.body], [200, '']);
  assert.equal(JSON.parse((await faan.respond('GET', '/v1/rulesets/hkma?x=1')).body).id, 'hkma');
});

test('settle, ledger, waits and analyze resolve to their answers', { skip }, async () => {
  const w = await faan.waits({ ruleset: 'hkma', hand: { tiles: '1112345678999m' },
    context: { seat_wind: 'south', round_wind: 'east' } });
  // Nine gates waits on every tile of its suit.
  assert.deepEqual(w.waits.map((x) => x.tile), ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']);
  const an = await faan.analyze({ ruleset: 'hkma', hand: { tiles: '1112345678999m' },
    context: { seat_wind: 'south', round_wind: 'east' } });
  assert.equal(an.shanten.best, 0); // ready
});

test('faan.d.ts is what types.mjs writes from openapi/openapi.json', () => {
  const committed = readFileSync(fileURLToPath(new URL('../faan.d.ts', import.meta.url)), 'utf8');
  assert.equal(committed, declarations(openapi()), 'run node web/pkg/types.mjs');
});
