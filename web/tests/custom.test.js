// The House rules panel's logic: the pattern catalogue, the ruleset document, compare with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { catalogue, learnNames, scoredAfter, conditionsShown, withPattern, withCondition, patternChoice, rulesetDocument, houseFromDocument, discardPayment, docPointer, compareWithCustom, namingDocument, documentFileName, OPTIONAL_PATTERNS } from "../js/custom.js";
import { emptyState, toQuery, fromQuery } from "../js/state.js";

// A chart in the shape of GET /v1/rulesets/wisteria-court (the parts the page reads).
const WISTERIA = {
  id: "wisteria-court",
  name: "Wisteria Court Mahjong",
  payment: { discarder: 2, others: 1, self_draw: 2, robbing_kong: "as_discard" },
  patterns: [
    { id: "all_chows", name: "All chows", name_zh: "平糊", faan: 1, limit: false, value: 1, conditions: { pair_may_be_value_tile: true } },
    { id: "concealed_hand", name: "Concealed hand", name_zh: "門前清", faan: 1, limit: false, value: 1, conditions: { allow_concealed_kong: true, only_without_flowers: false, discard_only_in_pair: false } },
    { id: "big_four_winds", name: "Big four winds", name_zh: "大四喜", faan: 10, limit: true, value: "limit", conditions: {} }
  ]
};
// Another chart: one pattern Wisteria Court does not score, with its switch.
const SIX = {
  id: "six",
  name: "Six",
  patterns: [
    { id: "seven_pairs", name: "Seven pairs", name_zh: "七對子", faan: 4, limit: false, value: 4, conditions: { four_as_two_pairs: false } },
    { id: "all_chows", name: "All chows", name_zh: "平糊", faan: 1, limit: false, value: 1, conditions: { pair_may_be_value_tile: false } }
  ]
};

test("the catalogue: every pattern of the charts seen, the optional ids named only once something named them", () => {
  const learned = learnNames({}, [{ pattern: "fully_concealed", name: "Fully concealed hand", name_zh: "門前清自摸", faan: 3 }]);
  const cat = catalogue([WISTERIA, SIX], learned);
  assert.equal(cat.size, 4 + OPTIONAL_PATTERNS.length, "three of Wisteria Court, seven pairs of the other, the eleven optional ones");
  assert.deepEqual(cat.get("seven_pairs"), { id: "seven_pairs", name: "Seven pairs", name_zh: "七對子", conditions: ["four_as_two_pairs"] }, "from the second chart");
  assert.deepEqual([cat.get("fully_concealed").name, cat.get("fully_concealed").name_zh], ["Fully concealed hand", "門前清自摸"], "learned from a scored line");
  assert.equal(cat.get("all_simples").name, null, "nothing has named all simples");
});

test("switches shown: those of the patterns scored after the house rules, with the ruleset's values", () => {
  const cat = catalogue([WISTERIA, SIX], {});
  assert.deepEqual(conditionsShown(WISTERIA, {}, cat).map((c) => [c.key, c.value]), [
    ["allow_concealed_kong", true], ["discard_only_in_pair", false], ["only_without_flowers", false], ["pair_may_be_value_tile", true]
  ], "Wisteria Court's four");
  const h = withPattern(withPattern({}, "seven_pairs", "4"), "concealed_hand", "off");
  assert.deepEqual([...scoredAfter(WISTERIA, h)].sort(), ["all_chows", "big_four_winds", "seven_pairs"], "seven pairs added, the concealed hand off");
  assert.deepEqual(conditionsShown(WISTERIA, h, cat).map((c) => [c.key, c.value]), [
    ["four_as_two_pairs", null], ["pair_may_be_value_tile", true]
  ], "seven pairs' switch (not in this chart: no ruleset value); the concealed hand's gone");
});

test("pattern and switch choices make house rules, and go into the URL and back", () => {
  let h = withPattern({}, "fully_concealed", "3");
  h = withPattern(h, "big_four_winds", "limit");
  h = withPattern(h, "concealed_hand", "off");
  h = withCondition(h, "pure_only", true);
  assert.deepEqual(h, { patterns: { fully_concealed: 3, big_four_winds: "limit", concealed_hand: null }, conditions: { pure_only: true } }, "house rules");
  assert.deepEqual([patternChoice(h, "fully_concealed"), patternChoice(h, "concealed_hand"), patternChoice(h, "all_chows")], ["3", "off", ""], "choosers");
  assert.deepEqual(withCondition(withPattern(h, "fully_concealed", ""), "pure_only", null), { patterns: { big_four_winds: "limit", concealed_hand: null } }, "back to the ruleset's");
  const s = { ...emptyState(), house: h };
  assert.deepEqual(fromQuery("?" + toQuery(s)).house, h, "through the URL");
  assert.deepEqual(fromQuery("?patterns=x:9999,Bad:1&switches=pure_only:maybe").house, {}, "malformed values dropped");
});

test("a discard payment rule as payment multiples (Payment::with_discard, in eighths)", () => {
  assert.deepEqual(discardPayment(WISTERIA.payment, "discarder_pays_all"), { discarder: 4, others: 0 }, "2 + 1 + 1 = 4 B, all from the discarder");
  assert.deepEqual(discardPayment({ discarder: 1, others: 1 }, "discarder_pays_half"), { discarder: 1.5, others: 0.75 }, "3 B: half 1.5, a quarter 0.75");
  assert.deepEqual(discardPayment({ discarder: 1, others: 1 }, "discarder_pays_double"), { discarder: 2, others: 1 }, "double: 2 and 1");
});

test("the ruleset document: extends the built-in, lists only what changed, in the TOML keys", () => {
  const cat = catalogue([WISTERIA, SIX], {});
  const house = {
    min_faan: 1, limit: 8, flowers: false, points: "full_spicy", discard_payment: "discarder_pays_all",
    patterns: { fully_concealed: 3, big_four_winds: 8, seven_pairs: 4, concealed_hand: null, all_simples: null },
    conditions: { pair_may_be_value_tile: false, four_as_two_pairs: true, discard_only_in_pair: true },
    contains: { seven_pairs: [] }
  };
  const doc = rulesetDocument(WISTERIA, house, { stake: 0.5, dealer_keeps_on_win: true }, { name: "Wisteria Court Mahjong (house rules)", catalogue: cat });
  assert.deepEqual(doc, {
    extends: "wisteria-court",
    id: "custom-wisteria-court",
    name: "Wisteria Court Mahjong (house rules)",
    min_faan: 1,
    limit: 8,
    limit_faan: 8,
    bonus_tiles: false,
    points: { curve: "full_spicy", table: null, extend_last: null },
    payment: { discard: { discarder: 4, others: 0 } },
    patterns: {
      fully_concealed: { faan: 3 },
      big_four_winds: { faan: 8, limit: null },
      seven_pairs: { faan: 4, four_as_two_pairs: true, contains: [] },
      concealed_hand: null,
      all_chows: { pair_may_be_value_tile: false }
    },
    table: { stake: 0.5, dealer_keeps_on_win: true }
  }, "every house rule in its TOML key; all simples (not scored) needs no null; the concealed hand's switch goes with it");
  assert.deepEqual(rulesetDocument(WISTERIA, { points: [1, 2, 4] }, {}, {}), { extends: "wisteria-court", id: "custom-wisteria-court", name: "Wisteria Court Mahjong", points: { table: [1, 2, 4], curve: null } }, "a points table replaces the curve");
  assert.equal(documentFileName(doc), "custom-wisteria-court.json", "the download's name");
});

test("problems of a document point at the panel's controls", () => {
  assert.equal(docPointer("/ruleset/patterns/fully_concealed/faan"), "/house_rules/patterns/fully_concealed", "a pattern's value");
  assert.equal(docPointer("/ruleset/patterns/nine_gates/pure_only"), "/house_rules/conditions/pure_only", "a switch");
  assert.equal(docPointer("/ruleset/table/stake"), "/house_rules/stake", "a table rule");
  assert.equal(docPointer("/ruleset/bonus_tiles"), "/house_rules/flowers", "bonus tiles");
  assert.equal(docPointer("/ruleset/payment/discard/discarder"), "/house_rules/discard_payment", "the payment");
  assert.equal(docPointer("/rulesets/11/limit"), "/house_rules/limit", "a compare item");
  assert.equal(docPointer("/ruleset/extends"), "/ruleset_document", "the document itself");
  assert.equal(docPointer("/rulesets/11"), "/ruleset_document", "a compare item refused whole");
  assert.equal(docPointer("/ruleset"), "/ruleset", "an unknown ruleset id stays at the ruleset chooser");
  assert.equal(docPointer("/hand/tiles"), "/hand/tiles", "anything else unchanged");
});

test("compare with the page's ruleset: the built-in ids as they are, the document beside them", () => {
  const body = { rulesets: "all", hand: { tiles: "x" }, context: { win_by: "self_draw" }, house_rules: { min_faan: 1 } };
  const doc = { extends: "hkma", id: "custom-hkma", name: "HKMA (house rules)", min_faan: 1 };
  assert.deepEqual(compareWithCustom(body, ["hkma", "wisteria-court"], doc), {
    rulesets: ["hkma", "wisteria-court", doc], hand: { tiles: "x" }, context: { win_by: "self_draw" }
  }, "no house rules on the built-in ones");
  const naming = namingDocument("hkma");
  assert.deepEqual(Object.keys(naming.patterns), OPTIONAL_PATTERNS, "the naming document adds every optional pattern");
  assert.equal(naming.extends, "hkma", "over the chosen ruleset");
});

test("import: a document back into house rules and table rules, what the panel cannot show named", () => {
  const cat = catalogue([WISTERIA, SIX], {});
  const house = {
    min_faan: 1, limit: 8, flowers: false, points: [1, 2, 4, 8, 16, 32, 64, 128, 256], discard_payment: "discarder_pays_half",
    patterns: { fully_concealed: 3, big_four_winds: "limit", concealed_hand: null },
    conditions: { pair_may_be_value_tile: false }
  };
  const table = { stake: 0.25, multiple_winners: "head_bump" };
  const doc = rulesetDocument(WISTERIA, house, table, { catalogue: cat });
  assert.deepEqual(houseFromDocument(JSON.parse(JSON.stringify(doc)), WISTERIA), { ruleset: "wisteria-court", house, table, skipped: [] }, "exported and imported: the same rules");
  const odd = { extends: "wisteria-court", notes: ["x"], payment: { discard: { discarder: 3, others: 0 } }, patterns: { all_chows: { faan: 2, note: "n" } } };
  assert.deepEqual(houseFromDocument(odd, WISTERIA), { ruleset: "wisteria-court", house: { patterns: { all_chows: 2 } }, table: {}, skipped: ["notes", "payment", "patterns.all_chows.note"] }, "a payment no rule makes, notes and a note are skipped");
  assert.deepEqual(houseFromDocument({ id: "mine" }, null), { problem: "house.import_extends" }, "a whole ruleset of its own is not imported");
  assert.deepEqual(houseFromDocument([1], WISTERIA), { problem: "house.import_not_object" }, "not a document");
});
