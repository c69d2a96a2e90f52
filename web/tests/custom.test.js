// The House rules panel's logic: the pattern catalogue, the ruleset document, compare with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { catalogue, panelOrder, scoredAfter, conditionsShown, withPattern, withCondition, patternChoice, rulesetDocument, houseFromDocument, discardPayment, docPointer, compareWithCustom, documentFileName, defaultContains, effectiveContains, withContains, toggleContains, pruneContains, withExclusive, withoutExclusive, namedPatterns, limitsAdd, withLimits } from "../js/custom.js";
import { mapApiError, mapProblem, describe, describeNested, rulesetSummary } from "../js/format.js";
import { makeT } from "../js/i18n.js";
import { emptyInput, toQuery, fromQuery } from "../js/input.js";

// A chart in the shape of GET /v1/rulesets/wisteria-court (the parts the page reads).
const WISTERIA = {
  id: "wisteria-court",
  name: "Wisteria Court Mahjong",
  payment: { discarder: 2, others: 1, self_draw: 2, robbing_kong: "as_discard" },
  patterns: [
    { id: "all_chows", name: "All chows", name_zh: "平糊", faan: 1, limit: false, value: 1, contains: [], conditions: { pair_may_be_value_tile: true } },
    { id: "self_draw", name: "Self-drawn win", name_zh: "自摸", faan: 1, limit: false, value: 1, contains: [], conditions: {} },
    { id: "concealed_hand", name: "Concealed hand", name_zh: "門前清", faan: 1, limit: false, value: 1, contains: [], conditions: { allow_concealed_kong: true, only_without_flowers: false, discard_only_in_pair: false } },
    { id: "big_four_winds", name: "Big four winds", name_zh: "大四喜", faan: 10, limit: true, value: "limit", contains: ["seat_wind", "round_wind"], conditions: {} }
  ]
};
// A part of GET /v1/patterns, in contract order (the entries as core::pattern::PATTERNS has them).
const TABLE = {
  patterns: [
    { id: "all_chows", name: "All chows", name_zh: "平糊", conditions: ["pair_may_be_value_tile"], contains_when_added: [], optional: false },
    { id: "self_draw", name: "Self-drawn win", name_zh: "自摸", conditions: [], contains_when_added: [], optional: false },
    { id: "concealed_hand", name: "Concealed hand", name_zh: "門前清", conditions: ["allow_concealed_kong", "only_without_flowers", "discard_only_in_pair"], contains_when_added: [], optional: false },
    { id: "seat_wind", name: "Seat wind pung", name_zh: "門風", conditions: [], contains_when_added: [], optional: false },
    { id: "round_wind", name: "Round wind pung", name_zh: "圈風", conditions: [], contains_when_added: [], optional: false },
    { id: "seven_pairs", name: "Seven pairs", name_zh: "七對子", conditions: ["four_as_two_pairs"], contains_when_added: ["concealed_hand"], optional: false },
    { id: "big_four_winds", name: "Big four winds", name_zh: "大四喜", conditions: [], contains_when_added: ["seat_wind", "round_wind"], optional: false },
    { id: "fully_concealed", name: "Fully concealed hand", name_zh: "門前清自摸", conditions: [], contains_when_added: ["self_draw", "concealed_hand"], optional: true },
    { id: "all_simples", name: "All simples", name_zh: "斷么", conditions: [], contains_when_added: [], optional: true },
    { id: "voided_suit", name: "Voided suit", name_zh: "缺一門", conditions: [], contains_when_added: [], optional: true }
  ],
  conditions: []
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

test("the catalogue: the server's pattern table in its order; without it, the charts' patterns", () => {
  const cat = catalogue(TABLE, [WISTERIA, SIX]);
  assert.deepEqual([...cat.keys()], TABLE.patterns.map((p) => p.id), "the table's ten, in contract order; the charts add none");
  assert.deepEqual(cat.get("fully_concealed"), { id: "fully_concealed", name: "Fully concealed hand", name_zh: "門前清自摸", conditions: [], contains_when_added: ["self_draw", "concealed_hand"], optional: true }, "an optional pattern named by the table");
  const bare = catalogue(null, [WISTERIA, SIX]);
  assert.deepEqual([...bare.keys()], ["all_chows", "self_draw", "concealed_hand", "big_four_winds", "seven_pairs"], "no table: Wisteria Court's four, then seven pairs of the other chart");
  assert.deepEqual(bare.get("seven_pairs"), { id: "seven_pairs", name: "Seven pairs", name_zh: "七對子", conditions: ["four_as_two_pairs"], contains_when_added: [], optional: false }, "from the second chart");
});

test("the panel's order: the optional patterns first, then the ruleset's, then the others, each in contract order", () => {
  const rows = panelOrder(catalogue(TABLE, [WISTERIA]), WISTERIA);
  assert.deepEqual(rows.map((r) => r.id + ":" + r.group), [
    "fully_concealed:0", "all_simples:0", "voided_suit:0",
    "all_chows:1", "self_draw:1", "concealed_hand:1", "big_four_winds:1",
    "seat_wind:2", "round_wind:2", "seven_pairs:2"
  ], "three optional, Wisteria Court's four, the other three");
});

test("switches shown: those of the patterns scored after the house rules, with the ruleset's values", () => {
  const cat = catalogue(null, [WISTERIA, SIX]);
  assert.deepEqual(conditionsShown(WISTERIA, {}, cat).map((c) => [c.key, c.value]), [
    ["allow_concealed_kong", true], ["discard_only_in_pair", false], ["only_without_flowers", false], ["pair_may_be_value_tile", true]
  ], "Wisteria Court's four");
  const h = withPattern(withPattern({}, "seven_pairs", "4"), "concealed_hand", "off");
  assert.deepEqual([...scoredAfter(WISTERIA, h)].sort(), ["all_chows", "big_four_winds", "self_draw", "seven_pairs"], "seven pairs added, the concealed hand off");
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
  const s = { ...emptyInput(), house: h };
  assert.deepEqual(fromQuery("?" + toQuery(s)).house, h, "through the URL");
  assert.deepEqual(fromQuery("?patterns=x:9999,Bad:1&switches=pure_only:maybe").house, {}, "malformed values dropped");
});

test("a discard payment rule as payment multiples (Payment::with_discard, in eighths)", () => {
  assert.deepEqual(discardPayment(WISTERIA.payment, "discarder_pays_all"), { discarder: 4, others: 0 }, "2 + 1 + 1 = 4 B, all from the discarder");
  assert.deepEqual(discardPayment({ discarder: 1, others: 1 }, "discarder_pays_half"), { discarder: 1.5, others: 0.75 }, "3 B: half 1.5, a quarter 0.75");
  assert.deepEqual(discardPayment({ discarder: 1, others: 1 }, "discarder_pays_double"), { discarder: 2, others: 1 }, "double: 2 and 1");
});

test("the ruleset document: extends the built-in, lists only what changed, in the TOML keys", () => {
  const cat = catalogue(TABLE, [WISTERIA, SIX]);
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
      fully_concealed: { faan: 3, contains: ["self_draw", "concealed_hand"] },
      big_four_winds: { faan: 8, limit: null },
      seven_pairs: { faan: 4, four_as_two_pairs: true, contains: [] },
      concealed_hand: null,
      all_chows: { pair_may_be_value_tile: false }
    },
    table: { stake: 0.5, dealer_keeps_on_win: true }
  }, "every house rule in its TOML key; an added pattern's contains written out; all simples (not scored) needs no null; the concealed hand's switch goes with it");
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
});

test("import: a document back into house rules and table rules, what the panel cannot show named", () => {
  const cat = catalogue(TABLE, [WISTERIA, SIX]);
  const house = {
    min_faan: 1, limit: 8, flowers: false, points: [1, 2, 4, 8, 16, 32, 64, 128, 256], discard_payment: "discarder_pays_half",
    patterns: { fully_concealed: 3, big_four_winds: "limit", concealed_hand: null },
    conditions: { pair_may_be_value_tile: false }
  };
  const table = { stake: 0.25, multiple_winners: "head_bump" };
  const doc = rulesetDocument(WISTERIA, house, table, { catalogue: cat });
  assert.deepEqual(houseFromDocument(JSON.parse(JSON.stringify(doc)), WISTERIA, cat), { ruleset: "wisteria-court", house, table, skipped: [] }, "exported and imported: the same rules (fully concealed's written-out contains is no house rule)");
  const odd = { extends: "wisteria-court", notes: ["x"], payment: { discard: { discarder: 3, others: 0 } }, patterns: { all_chows: { faan: 2, note: "n" } } };
  assert.deepEqual(houseFromDocument(odd, WISTERIA), { ruleset: "wisteria-court", house: { patterns: { all_chows: 2 } }, table: {}, skipped: ["notes", "payment", "patterns.all_chows.note"] }, "a payment no rule makes, notes and a note are skipped");
  assert.deepEqual(houseFromDocument({ id: "mine" }, null), { problem: "house.import_extends" }, "a whole ruleset of its own is not imported");
  assert.deepEqual(houseFromDocument([1], WISTERIA), { problem: "house.import_not_object" }, "not a document");
});

test("what contains what: the chart's list for its patterns, contains_when_added for added ones, a house entry only where it differs", () => {
  const cat = catalogue(TABLE, [WISTERIA]);
  let h = withPattern({}, "seven_pairs", "4");
  assert.deepEqual(defaultContains(WISTERIA, cat, "seven_pairs"), ["concealed_hand"], "seven pairs added: the engine's house-rule containment");
  assert.deepEqual(defaultContains(WISTERIA, cat, "big_four_winds"), ["seat_wind", "round_wind"], "big four winds: the chart's own list");
  h = toggleContains(h, WISTERIA, cat, "seven_pairs", "concealed_hand", false);
  assert.deepEqual(h.contains, { seven_pairs: [] }, "seven pairs stacks with the concealed hand: an empty list");
  assert.deepEqual(effectiveContains(WISTERIA, h, cat, "seven_pairs"), [], "the effective list follows the house rule");
  assert.equal("contains" in toggleContains(h, WISTERIA, cat, "seven_pairs", "concealed_hand", true), false, "ticked back: the default again, no house entry");
  h = toggleContains(h, WISTERIA, cat, "big_four_winds", "round_wind", false);
  h = toggleContains(h, WISTERIA, cat, "big_four_winds", "all_chows", true);
  assert.deepEqual(h.contains.big_four_winds, ["all_chows", "seat_wind"], "a chart pattern's list changed, in contract order");
  assert.deepEqual(withContains(h, WISTERIA, cat, "big_four_winds", ["round_wind", "seat_wind"]).contains, { seven_pairs: [] }, "the chart's list in another order is no change");
  const off = pruneContains(withPattern(h, "seven_pairs", "off"), WISTERIA);
  assert.deepEqual(off.contains, { big_four_winds: ["all_chows", "seat_wind"] }, "seven pairs not scored: its contains entry dropped (the server refuses it)");
  assert.equal(pruneContains(h, undefined), h, "no chart yet: nothing pruned");
});

test("exclusive pairs: added once in either order, never the ruleset's own again, removed by index", () => {
  const chart = { ...WISTERIA, exclusive: [["all_chows", "self_draw"]] };
  let h = withExclusive({}, chart, "all_chows", "concealed_hand");
  assert.deepEqual(h.exclusive, [["all_chows", "concealed_hand"]], "one pair");
  assert.equal(withExclusive(h, chart, "concealed_hand", "all_chows"), h, "the same pair reversed: unchanged");
  assert.equal(withExclusive(h, chart, "self_draw", "all_chows"), h, "the ruleset's own pair: unchanged");
  assert.equal(withExclusive(h, chart, "all_chows", "all_chows"), h, "one id twice: unchanged");
  h = withExclusive(h, chart, "self_draw", "concealed_hand");
  assert.deepEqual(withoutExclusive(h, 0), { exclusive: [["self_draw", "concealed_hand"]] }, "the first removed");
  assert.deepEqual(withoutExclusive(withoutExclusive(h, 0), 0), {}, "none left: no key");
});

test("contains and exclusive in the document, the URL, and imported back", () => {
  const cat = catalogue(TABLE, [WISTERIA]);
  const chart = { ...WISTERIA, exclusive: [["all_chows", "self_draw"]] };
  const house = { patterns: { seven_pairs: 4 }, contains: { seven_pairs: [], big_four_winds: ["seat_wind"] }, exclusive: [["all_chows", "concealed_hand"]] };
  const doc = rulesetDocument(chart, house, {}, { catalogue: cat });
  assert.deepEqual(doc.patterns, { seven_pairs: { faan: 4, contains: [] }, big_four_winds: { contains: ["seat_wind"] } }, "contains on each pattern (an explicit list wins over contains_when_added)");
  assert.deepEqual(doc.exclusive, [["all_chows", "self_draw"], ["all_chows", "concealed_hand"]], "exclusive at the top: the ruleset's pair, then the house's (arrays replace whole)");
  assert.deepEqual(houseFromDocument(JSON.parse(JSON.stringify(doc)), chart, cat), { ruleset: "wisteria-court", house, table: {}, skipped: [] }, "imported: the same house rules, the ruleset's pair left out");
  const added = rulesetDocument(chart, { patterns: { seven_pairs: 4 } }, {}, { catalogue: cat });
  assert.deepEqual(added.patterns, { seven_pairs: { faan: 4, contains: ["concealed_hand"] } }, "seven pairs added without a change: contains_when_added written out");
  const s = { ...emptyInput(), house };
  assert.equal(toQuery(s), "patterns=seven_pairs%3A4&contains=seven_pairs%3A%2Cbig_four_winds%3Aseat_wind&exclusive=all_chows.concealed_hand", "in the URL");
  assert.deepEqual(fromQuery("?" + toQuery(s)).house, house, "and back");
  assert.deepEqual(fromQuery("?contains=Bad:x,seven_pairs:a..b&exclusive=a,a.b.c").house, {}, "malformed entries dropped");
});

test("a refused contains at its control, in both languages", () => {
  const cat = catalogue(TABLE, []);
  assert.equal(docPointer("/ruleset/patterns/seven_pairs/contains/0"), "/house_rules/contains/seven_pairs", "a document's contains: that pattern's row");
  assert.equal(docPointer("/ruleset/exclusive/1/0"), "/house_rules/exclusive", "a document's exclusive pair");
  const house = mapApiError({ pointer: "/house_rules/contains/concealed_hand", message: "concealed_hand would contain itself through seven_pairs: a chain of contains must not come back to where it starts" });
  assert.deepEqual(house, { pointer: "/house_rules/contains/concealed_hand", key: "err.contains_cycle", params: { pattern: "concealed_hand", via: "seven_pairs" } }, "house_rules.contains: the cycle");
  const docMsg = mapApiError({ pointer: "/ruleset/patterns/concealed_hand/contains", message: "concealed_hand contains itself through a chain of contains (through seven_pairs)" });
  assert.deepEqual(docMsg.params, { pattern: "concealed_hand", via: "seven_pairs" }, "a document's cycle: the same message");
  const named = namedPatterns(house, cat);
  assert.equal(describe(named, makeT("en")), "Concealed hand would contain itself through Seven pairs: untick one of the two.", "English");
  assert.equal(describe(named, makeT("zh")), "門前清 經 七對子 會包含返自己：請剔走其中一個。", "Chinese");
  assert.equal(describe(namedPatterns(mapApiError({ pointer: "/house_rules/contains/seven_pairs/0", message: "seven_pairs cannot contain itself" }), cat), makeT("zh")), "七對子 不能包含自己。", "itself, in Chinese");
  assert.equal(describe(namedPatterns({ key: "err.contains_self", params: { pattern: "ping_wu" } }, cat), makeT("en")), "ping wu cannot contain itself.", "an id the table lacks: its words");
});

test("limits that add: the choice, how a total above the limit pays only where limits add, in the document, the URL and imported back", () => {
  const cat = catalogue(TABLE, [WISTERIA]);
  const adding = { ...WISTERIA, limits_add: true, limits_pay: "per_limit" };
  assert.deepEqual([limitsAdd(WISTERIA, {}), limitsAdd(adding, {}), limitsAdd(WISTERIA, { limits_add: true }), limitsAdd(adding, { limits_add: false })], [false, true, true, false], "the house's choice, else the chart's");
  assert.deepEqual(withLimits({ min_faan: 1 }, WISTERIA, true, "once"), { min_faan: 1, limits_add: true, limits_pay: "once" }, "limits add, one limit at most");
  assert.deepEqual(withLimits({ limits_add: true, limits_pay: "once" }, WISTERIA, false, "once"), { limits_add: false }, "limits do not add: how above the limit pays is dropped with its control");
  assert.deepEqual(withLimits({ limits_add: true, limits_pay: "once" }, WISTERIA, null, "once"), {}, "back to Wisteria Court's (no limits add): both gone");
  assert.deepEqual(withLimits({}, adding, null, "once"), { limits_pay: "once" }, "a chart whose limits add: its limits_pay alone changed");
  assert.deepEqual(withLimits({}, WISTERIA, true, "twice"), { limits_add: true }, "an unknown way to pay is not kept");

  const house = { limits_add: true, limits_pay: "once", patterns: { big_four_winds: "limit" } };
  const doc = rulesetDocument(WISTERIA, house, {}, { catalogue: cat });
  assert.deepEqual(doc, { extends: "wisteria-court", id: "custom-wisteria-court", name: "Wisteria Court Mahjong", limits_add: true, limits_pay: "once", patterns: { big_four_winds: { faan: "limit", limit: null } } }, "the document: limits_add and limits_pay at the top, in the TOML keys");
  assert.deepEqual(houseFromDocument(JSON.parse(JSON.stringify(doc)), WISTERIA, cat), { ruleset: "wisteria-court", house, table: {}, skipped: [] }, "imported back: the same house rules");
  assert.deepEqual(houseFromDocument({ extends: "wisteria-court", limits_add: "yes", limits_pay: "twice" }, WISTERIA, cat), { ruleset: "wisteria-court", house: {}, table: {}, skipped: ["limits_add", "limits_pay"] }, "values the panel cannot show are skipped and named");

  const s = { ...emptyInput(), house: { limits_add: false } };
  assert.equal(toQuery(s), "limits_add=false", "limits that do not add, in the URL");
  const both = { ...emptyInput(), house: { limits_add: true, limits_pay: "per_limit" } };
  assert.equal(toQuery(both), "limits_add=true&limits_pay=per_limit", "both in the URL");
  assert.deepEqual(fromQuery("?" + toQuery(both)).house, both.house, "and back");
  assert.deepEqual(fromQuery("?limits_add=yes&limits_pay=twice").house, {}, "malformed values dropped");
});

test("limits that add: refusals at their controls, the chart's line in both languages", () => {
  assert.equal(docPointer("/ruleset/limits_add"), "/house_rules/limits_add", "a document's limits_add");
  assert.equal(docPointer("/ruleset/limits_pay"), "/house_rules/limits_pay", "a document's limits_pay");
  assert.equal(docPointer("/rulesets/11/limits_pay"), "/house_rules/limits_pay", "a compare item's limits_pay");
  // The server's answer to house_rules.limits_pay "twice" (POST /v1/score, 422).
  const refused = mapProblem(422, { status: 422, errors: [{ pointer: "/house_rules/limits_pay", message: "unknown variant `twice`, expected `per_limit` or `once`" }] });
  assert.deepEqual(refused.map((m) => [m.pointer, m.key]), [["/house_rules/limits_pay", "err.house_rule"]], "at the control");
  assert.doesNotMatch(describe(refused[0], makeT("en")), /per_limit|_/, "in words, no API names");

  const adding = { ...WISTERIA, limits_add: true, limits_pay: "per_limit", points: { curve: "half_spicy" } };
  const info = { min_faan: 0, limit: 10, bonus_tiles: true };
  const last = (chart, lang) => { const l = rulesetSummary(info, chart); return describeNested(l[l.length - 1], makeT(lang)); };
  assert.equal(last(adding, "en"), "Limit hands add to the other faan, with no cap; above the limit, each whole limit pays the limit's points and the faan left over their own.", "per_limit, English");
  assert.equal(last({ ...adding, limits_pay: "once" }, "en"), "Limit hands add to the other faan, with no cap; a total above the limit pays the limit's points once.", "once, English");
  assert.equal(last(adding, "zh"), "爆棚可以同其他番數相加，不設上限；超出上限時，每個完整爆棚照計爆棚的分，餘下番數照分數表計。", "per_limit, Chinese");
  assert.equal(last({ ...adding, limits_pay: "once" }, "zh"), "爆棚可以同其他番數相加，不設上限；超出上限時最多只計一個爆棚的分。", "once, Chinese");
  assert.equal(rulesetSummary(info, { ...adding, limits_add: false }).some((m) => m.key === "rules.limits_add"), false, "no line where limits do not add");
});

test("import: unknown pattern ids and a faan above the limit are refused before the server is asked", async () => {
  const { importProblems, catalogue } = await import("../js/custom.js");
  const cat = catalogue({ patterns: [{ id: "voided_suit", name: "Voided suit" }] }, []);
  const chart = { limit: 13 };
  assert.deepEqual(importProblems({ extends: "hkma", patterns: { no_such_pattern: { faan: 2 } } }, chart, cat),
    [{ pointer: "/ruleset_document", key: "house.import_unknown_pattern", params: { id: "no_such_pattern" } }]);
  assert.deepEqual(importProblems({ extends: "hkma", patterns: { voided_suit: { faan: 99 } } }, chart, cat),
    [{ pointer: "/ruleset_document", key: "house.import_faan_over", params: { id: "voided_suit", faan: 99, limit: 13 } }]);
  assert.deepEqual(importProblems({ extends: "hkma", limit: 10, patterns: { voided_suit: { faan: 13 } } }, chart, cat).map((m) => m.params.limit), [10]);
  assert.deepEqual(importProblems({ extends: "hkma", patterns: { voided_suit: { faan: 3 }, x: null } }, chart, null), []);
});
