// The page's state: editing, counts, the URL and the request bodies.
import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyInput, derive, addTile, addMeld, removeTile, removeMeld, toQuery, fromQuery, requestBody, readyToScore, readyForWaits } from "../js/input.js";
import { Latest } from "../js/api.js";

test("a tapped tile goes last and wins; a fifth copy is refused", () => {
  let s = emptyInput();
  for (const t of ["1m", "1m", "2m", "1m", "1m"]) s = addTile(s, t).state;
  assert.equal(s.text, "11211m");
  assert.equal(derive(s).winning, "1m");
  const r = addTile(s, "1m");
  assert.deepEqual(r.refused, { code: "fifth_copy", tile: "1m" });
  assert.equal(r.state, s, "the state is unchanged");
  // A pung of 2m with three 2m... and one in the hand: four in all, allowed; a fifth refused.
  s = addMeld(addTile(emptyInput(), "2m").state, "pung", "2m").state;
  assert.equal(s.text, "[222m] 2m");
  assert.equal(addMeld(s, "pung", "2m").refused.code, "fifth_copy");
  // A chow from its lowest tile; 8m cannot start one.
  assert.equal(addMeld(emptyInput(), "chow", "3p").state.text, "[345p]");
  assert.equal(addMeld(emptyInput(), "chow", "8m").refused.code, "chow_start");
  assert.equal(addMeld(emptyInput(), "kong", "1s", { concealed: true }).state.text, "(1111s)");
});

test("removing a tile or a meld rewrites the box", () => {
  const s = { ...emptyInput(), text: "[777z] 123m9p" };
  assert.equal(removeTile(s, 3).text, "[777z] 123m");
  assert.equal(removeMeld(s, 0).text, "123m9p");
  assert.equal(derive(removeTile(s, 3)).winning, "3m", "the new last tile wins");
});

test("tiles needed: melds take three each; a waiting hand is one short", () => {
  const d = derive({ ...emptyInput(), text: "[777z] 123m456p23s55s" });
  assert.equal(d.needWin, 11);
  assert.equal(d.needWaits, 10);
  assert.equal(d.missing, 1);
  assert.equal(readyForWaits(d), true);
  assert.equal(readyToScore(emptyInput(), d), false);
  const full = { ...emptyInput(), text: "[777z] 123m456p234s55s" };
  assert.equal(readyToScore(full, derive(full)), true);
  const five = { ...emptyInput(), text: "11111m234m456p789s" };
  assert.deepEqual(derive(five).over, [{ tile: "1m", n: 5 }]);
  assert.equal(readyToScore(five, derive(five)), false);
});

test("the URL holds the hand, the win and the rules, and reads back", () => {
  const s = {
    ...emptyInput(),
    text: "pung 7z 123m456m789m55m",
    winPick: "2m",
    flowers: ["F1", "S3"],
    context: { ...emptyInput().context, win_by: "discard", discarder: "north", seat_wind: "east", round_wind: "south", last_tile: true, liable: "west" },
    ruleset: "hkma",
    house: { min_faan: 1, limit: 8, flowers: true, points: [1, 2, 4], discard_payment: "discarder_pays_all" },
    view: "compare"
  };
  const q = toQuery(s);
  assert.match(q, /hand=pung\+7z\+123m456m789m55m/);
  assert.match(q, /rules=hkma/);
  assert.deepEqual(fromQuery("?" + q), s);
  assert.equal(toQuery(emptyInput()), "", "defaults stay out of the URL");
  // Nonsense in a link is ignored, not trusted.
  const bad = fromQuery("?seat=up&by=magic&rules=../x&min_faan=-1&view=admin&win=9z");
  assert.deepEqual(bad, emptyInput());
});

test("the score body: canonical MPSZ, melds, winning tile, the context", () => {
  const s = { ...emptyInput(), text: "[777z] 345p 123m 55s 2m", context: { ...emptyInput().context, win_by: "discard", discarder: "east" } };
  const d = derive(s);
  assert.deepEqual(requestBody("score", s, d), {
    ruleset: "wisteria-court",
    hand: { tiles: "1223m345p55s", melds: [{ kind: "pung", tiles: "777z" }], winning_tile: "2m" },
    context: { seat_wind: "south", round_wind: "east", win_by: "discard", discarder: "east" }
  });
  const w = requestBody("waits", s, d);
  assert.deepEqual(w.context, { seat_wind: "south", round_wind: "east" });
  assert.equal(w.hand.winning_tile, undefined);
  assert.equal(requestBody("compare", s, d).rulesets, "all");
});

test("only the latest request's answer counts", () => {
  const l = new Latest();
  const a = l.next();
  const b = l.next();
  assert.equal(a.signal.aborted, true, "the older request is aborted");
  assert.equal(l.isLatest(a.seq), false);
  assert.equal(l.isLatest(b.seq), true);
  l.cancel();
  assert.equal(l.isLatest(b.seq), false, "a cancelled request's answer is dropped too");
});

test("the compare box is in the URL", async () => {
  const { toQuery, fromQuery, emptyInput } = await import("../js/input.js");
  assert.equal(toQuery({ ...emptyInput(), compareCustom: true }), "compare_custom=1");
  assert.equal(fromQuery("?compare_custom=1").compareCustom, true);
  assert.equal(fromQuery("?").compareCustom, false);
});
