// Words: the money explained, errors in the player's language, the string tables.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { makeT, detectLang, TABLES } from "../js/i18n.js";
import { explainPayments, describe, mapProblem, mapApiError, controlLabel, localErrors, tileInMessage, lineName, CODES, rulesetSummary, houseCount } from "../js/format.js";
import { derive, emptyInput } from "../js/input.js";

const en = makeT("en");
const zh = makeT("zh");
const south = { seat_wind: "south", win_by: "self_draw" };
const say = (msgs, t, ctx) => msgs.map((m) => describe(m, t, ctx || south));

test("self-draw money: each of three pays 2 x 16 = 32 (Wisteria Court's quiet hand)", () => {
  const res = { meets_minimum: true, base_points: 16, winner: "south", payments: { east: -32, south: 96, west: -32, north: -32 } };
  assert.deepEqual(say(explainPayments(res, south), en), [
    "Self-draw: each of the three others pays 2 × 16 = 32.",
    "South receives 96 in all."
  ]);
  assert.deepEqual(say(explainPayments(res, south), zh), ["自摸：其餘三家各付 2 × 16 = 32。", "南家共收 96。"]);
});

test("discard money: the discarder apart, the others grouped", () => {
  // Wisteria Court, 3 faan (base 8) on West's discard: West pays 2B, East and North B each.
  const ctx = { seat_wind: "south", win_by: "discard", discarder: "west" };
  const res = { meets_minimum: true, base_points: 8, winner: "south", payments: { east: -8, south: 32, west: -16, north: -8 } };
  assert.deepEqual(say(explainPayments(res, ctx), en, ctx), [
    "West (discarder) pays 2 × 8 = 16.",
    "North and East pay 1 × 8 = 8 each.",
    "South receives 32 in all."
  ]);
  // HKMA: the discarder pays the whole hand (4B) alone.
  const hk = { meets_minimum: true, base_points: 16, winner: "south", payments: { east: 0, south: 64, west: -64, north: 0 } };
  assert.deepEqual(say(explainPayments(hk, ctx), zh, ctx), ["西家（出銃）付 4 × 16 = 64。", "南家共收 64。"]);
  assert.deepEqual(say(explainPayments({ ...res, meets_minimum: false }, ctx), en, ctx), ["Below the minimum: nobody pays."]);
});

test("the API's rule codes (engine/src/core/hand/rules.rs) in the player's words, with no field names", () => {
  // Each error as the server sends it (tests/api/codes.rs asserts the codes and params).
  const cases = [
    [{ pointer: "/hand/tiles", code: "tile_over_four", params: { tile: "1m", count: 5 } },
      "South's hand has five 1m; a set has only four of each tile.", "南家手牌有五張一萬；每種牌只有四張。"],
    [{ pointer: "/context/discarder", code: "discarder_is_winner", params: { seat: "south" } },
      "The discarder cannot be the winner (South).", "出銃者不能是食糊者（南家）。"],
    [{ pointer: "/hand/tiles", code: "tile_count", params: { expected: 14, melds: 0, got: 13 } },
      "South's hand has 13 concealed tiles; beside the declared melds (0) a win needs 14.", "南家手牌門前有 13 張；有 0 組副露時，食糊要 14 張。"],
    [{ pointer: "/hand/winning_tile", code: "winning_tile_not_in_hand", params: { tile: "9p" } },
      "The winning tile 9p is not among the concealed tiles.", "食糊張 九筒 不在門前牌之中。"],
    [{ pointer: "/hand/flowers", code: "bonus_off", params: { ruleset: "hkma" } },
      "Bonus tiles are not in play under this ruleset; set House rules → Bonus tiles to in play to score them.", "這個規則組不計花牌；要計的話，請在自訂規則把花牌設為有計。"],
    [{ pointer: "/context/flower_win", code: "flower_win_count", params: { count: 3 } },
      "A flower win needs seven or eight flowers and seasons; 3 chosen.", "花糊要七或八張花；現在揀選了 3 張。"],
    [{ pointer: "/hand/melds/0/tiles", code: "not_a_chow", params: { tiles: "135m" } },
      "This meld is not a Chow.", null],
    [{ pointer: "/hand/melds/0/tiles", code: "not_a_set", params: { tiles: "778s", kind: "pung", want: 3 } },
      "This meld is not a Pung.", null]
  ];
  for (const [error, wantEn, wantZh] of cases) {
    // The English message is not read: the code and params are.
    const m = mapApiError({ ...error, message: "(not read)" });
    assert.equal(describe(m, en, south), wantEn, error.code);
    if (wantZh) assert.equal(describe(m, zh, south), wantZh, error.code);
  }
  // A message without a code the page has no wording for: its field names made plain.
  const other = describe(mapApiError({ pointer: "/context/replacement", message: "needs win_by self_draw and hand.tiles" }), en, south);
  assert.equal(other, "needs win by self draw and the hand");
  assert.doesNotMatch(other, /_|hand\.tiles/);
});

test("the page words every rule code the server has, but for those it cannot meet", () => {
  const spec = JSON.parse(readFileSync(new URL("../../openapi/openapi.json", import.meta.url), "utf8"));
  const codes = spec.components.schemas.ProblemError.properties.code.enum;
  for (const code of Object.keys(CODES)) assert.ok(codes.includes(code), `${code}: no such code on the server`);
  for (const [code, [key]] of Object.entries(CODES)) {
    assert.ok(TABLES.en[key] && TABLES.zh[key], `${code}: ${key} is worded in both languages`);
  }
  // Not worded, each for its reason: notation the page checks before it
  // sends (tile_notation, bonus_notation, too_many_tiles, the waiting
  // counts it never sends wrong, too_many_bonus_tiles: its picker holds eight), problem types it words by their type
  // (not_winning, unknown_ruleset), and context the page has no control for.
  const unworded = codes.filter((c) => !CODES[c]).sort();
  assert.deepEqual(unworded, [
    "bonus_notation", "concealed_kong_robbed_not_orphan",
    "first_go_around_east", "first_go_around_melds", "first_go_around_not_discard",
    "last_of_its_kind_flower_win", "not_winning",
    "robbed_kong_without_robbing", "second_replacement_not_flower", "tile_notation", "too_many_bonus_tiles", "too_many_tiles",
    "two_flower_replacements", "unknown_ruleset", "winning_tile_while_waiting"
  ]);
});

test("problems: not a winning hand, an unknown ruleset", () => {
  assert.deepEqual(mapProblem(422, { type: "/problems/not-a-winning-hand", errors: [] }), [{ pointer: "/hand/tiles", key: "err.not_winning" }]);
  assert.deepEqual(mapProblem(404, { type: "/problems/unknown-ruleset", errors: [{ pointer: "/ruleset", message: "unknown ruleset riichi" }] }),
    [{ pointer: "/ruleset", key: "err.unknown_ruleset" }]);
});

test("a pointer names an on-screen control", () => {
  assert.equal(controlLabel("/hand/tiles", en), "The hand");
  assert.equal(controlLabel("/hand/melds/1/tiles", zh), "第 2 組副露");
  assert.equal(controlLabel("/house_rules/points/3", en), "House rules");
  assert.equal(controlLabel("/context/discarder", zh), "出銃者");
});

test("the page's own checks, in the same words as the server's", () => {
  const d = derive({ ...emptyInput(), text: "11111m234m456p789s" });
  assert.deepEqual(say(localErrors(d, "score", false), en), ["South's hand has five 1m; a set has only four of each tile."]);
  const short = derive({ ...emptyInput(), text: "123m5" });
  assert.deepEqual(localErrors(short, "score", false), [], "unfinished is not an error while typing");
  assert.deepEqual(say(localErrors(short, "score", true), en), ["The digits 5 at the end need a suit letter (m, p, s or z)."]);
  const bad = derive({ ...emptyInput(), text: "12x3m" });
  assert.deepEqual(say(localErrors(bad, "score", false), zh), ["第 3 個字：「x」不是牌。"]);
});

test("names: tiles in a sentence, pattern names by language", () => {
  assert.equal(tileInMessage("5z", zh), "白板");
  assert.equal(tileInMessage("5z", en), "5z");
  const line = { pattern: "self_draw", name: "Self-draw", name_zh: "自摸" };
  assert.equal(lineName(line, zh), "自摸");
  assert.equal(lineName(line, en), "Self-draw");
});

test("the language: the stored choice, else the browser's, else English", () => {
  assert.equal(detectLang(null, ["zh-HK", "en"]), "zh");
  assert.equal(detectLang(null, ["fr-FR", "zh-TW"]), "zh");
  assert.equal(detectLang("en", ["zh-HK"]), "en");
  assert.equal(detectLang(null, ["de"]), "en");
  assert.equal(detectLang("xx", []), "en");
});

const here = dirname(fileURLToPath(import.meta.url));
const web = join(here, "..");

function placeholders(s) {
  return [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
}

test("one table per language: the same keys and placeholders; every key the page uses exists", () => {
  const keysEn = Object.keys(TABLES.en).sort();
  assert.deepEqual(Object.keys(TABLES.zh).sort(), keysEn);
  // A tile in a Chinese sentence is named (一萬), never coded; English writes just 1m.
  // English says "once" where Chinese keeps the count.
  // A server's message the page has no wording for is shown in English only:
  // the Chinese page says in Chinese that something is wrong, never the English text.
  const differ = { "tile.in_message": ["code", "name"], "tile.in_label": ["code", "name"], "table.streak.one": ["", "n"], "err.house_rule": ["detail", ""], "err.other": ["detail", ""], "err.server": ["detail", ""] };
  for (const k of keysEn) {
    const [e, z] = differ[k] || [placeholders(TABLES.en[k]), placeholders(TABLES.en[k])];
    assert.equal(placeholders(TABLES.en[k]), e, k);
    assert.equal(placeholders(TABLES.zh[k]), z, k);
  }
  // Keys named in the page and the modules.
  const used = new Set();
  const html = ["index.html", "viewer.html"].map((f) => readFileSync(join(web, f), "utf8")).join("\n");
  for (const m of html.matchAll(/data-i18n(?:-html)?="([^"]+)"/g)) used.add(m[1]);
  for (const m of html.matchAll(/data-i18n-attr="([^"]+)"/g)) for (const pair of m[1].split(";")) used.add(pair.split(":")[1]);
  const files = ["js", "js/views"].flatMap((d) => readdirSync(join(web, d)).filter((f) => f.endsWith(".js")).map((f) => join(web, d, f)));
  for (const f of files) {
    const src = readFileSync(f, "utf8");
    for (const m of src.matchAll(/\b(?:T|t)\("([a-z_]+\.[a-z_./]+)"/g)) used.add(m[1]);
    for (const m of src.matchAll(/key: "([a-z_]+\.[a-z_.]+)"/g)) used.add(m[1]);
  }
  assert.ok(used.size > 80, "found the keys in use: " + used.size);
  for (const k of used) assert.ok(k in TABLES.en, "missing key " + k);
  // The Chinese table is Chinese: no English sentence left in it.
  for (const k of keysEn) {
    const v = TABLES.zh[k].replace(/<b>.*?<\/b>|\{\w+\}|\b[0-9mpsz+-]+\b|API|faan|MPSZ/g, "");
    assert.doesNotMatch(v, /\b[a-zA-Z]{4,}\b/, "English left in zh." + k + ": " + TABLES.zh[k]);
  }
});

test("counts read right in English: plural forms from the table", () => {
  const en = makeT("en"), zh = makeT("zh");
  assert.equal(en("house.count", { n: 1 }), "(1 change)");
  assert.equal(en("house.count", { n: 2 }), "(2 changes)");
  assert.equal(en("btn.waits", { n: 1 }), "Waits (1 tile)");
  assert.equal(en("btn.waits", { n: 10 }), "Waits (10 tiles)");
  assert.equal(en("status.problems", { n: 1 }), "1 problem: see the marked field.");
  assert.equal(en("status.problems", { n: 3 }), "3 problems: see the marked fields.");
  assert.equal(zh("btn.waits", { n: 1 }), "聽牌1張");
  assert.equal(zh("status.problems", { n: 1 }), "有 1 個問題：請看標示的欄位。");
  // The count under the hand box says only that the count is right, never that the hand wins.
  assert.equal(en("hand.count_win", { n: 14, more: en("hand.complete") }), "14 concealed tiles: the count for a win");
  for (const k of Object.keys(TABLES.en)) assert.doesNotMatch(TABLES.en[k], /\(s\)/, "no (s) in en." + k);
});

test("a ruleset's name in the page's language", async () => {
  const { rulesetName } = await import("../js/format.js");
  const info = { id: "wisteria-court", name: "Wisteria Court Mahjong", name_zh: "紫藤苑麻雀" };
  assert.equal(rulesetName(info, makeT("zh")), "紫藤苑麻雀");
  assert.equal(rulesetName(info, makeT("en")), "Wisteria Court Mahjong");
  assert.equal(rulesetName({ name: "Old server" }, makeT("zh")), "Old server", "no name_zh: the name");
  assert.equal(rulesetName(undefined, makeT("zh"), "mine"), "mine", "not listed: the id");
});

test("labels and co-winner problems", async () => {
  const { rulesetLabel } = await import("../js/format.js");
  const { makeT } = await import("../js/i18n.js");
  const en = makeT("en"), zh = makeT("zh");
  assert.equal(rulesetLabel("Dragon Society", true, en), "Dragon Society + house rules");
  assert.equal(rulesetLabel("Dragon Society", false, en), "Dragon Society");
  const m = mapApiError({ pointer: "/hands/0/winners/1/hand/winning_tile", message: "winning tile 9s differs from winner 0's 5s", code: "co_winner_winning_tile",
    params: { tile: "9s", first: "5s", player: "Cat", first_player: "Ben" } });
  const said = describe(m, zh);
  assert.match(said, /^Cat .*Ben .*一炮多響要食同一隻牌/);
  assert.doesNotMatch(said, /winner 0|differs/);
  assert.match(describe(m, en), /^Cat's hand ends on .*, but Ben won on /);
});

test("every settle and ledger problem in both languages, the players by name", () => {
  // Each as the server sends it (tests/api/codes.rs asserts the codes, pointers and params).
  const cases = [
    [{ code: "winner_count", params: { max: 3, got: 0 } },
      "One to 3 players win on one discard; this hand has 0.", "一隻牌由一至 3 家食糊，這局有 0 家。"],
    [{ code: "ledger_too_many_hands", params: { max: 2000, got: 2001 } },
      "A night holds at most 2000 hands.", "一晚最多記 2000 局。"],
    [{ code: "match_complete", params: { last: 15 } },
      "The night is complete: the north round ended with hand 16, and no hand may follow.", "今晚的牌局已經打完：北圈在第 16 局完結，之後不能再加局。"],
    [{ code: "balance_overflow", params: {} },
      "The running points grow too large to count exactly: lower the points or the dealer multiplier.", "累計分數大到不能準確計算：請減低分數或莊家倍數。"],
    [{ code: "player_count", params: { got: 3 } }, "A night has four players; 3 are named.", "一枱要四位玩家，現在有 3 位。"],
    [{ code: "player_name_empty", params: { index: 1 } }, "Enter player 2's name.", "請輸入第 2 位玩家的名字。"],
    [{ code: "player_name_long", params: { index: 2, max: 32, chars: 33 } },
      "Player 3's name is longer than 32 characters.", "第 3 位玩家的名字超過 32 個字。"],
    [{ code: "player_repeated", params: { name: "Ann" } },
      "Two players are called Ann: give each a different name.", "兩位玩家同叫 Ann：請用不同的名字。"],
    [{ code: "unknown_player", params: { name: "Eve" } },
      "Eve is not one of the four players at the table.", "Eve 不是枱上四位玩家之一。"],
    [{ code: "unknown_player_long", params: { chars: 40, max: 32 } },
      "A name of 40 characters is not one of the four players (a name has at most 32).", "40 個字的名字不是枱上四位玩家之一（名字最多 32 個字）。"],
    [{ code: "winner_repeated", params: { player: "Ben" } },
      "Ben already wins this hand: choose another winner.", "Ben 已經食了這局：請揀另一家。"],
    [{ code: "seat_wind_mismatch", params: { player: "Ben", seat: "south", seat_wind: "west" } },
      "Ben sits South in this hand, not West: the seats follow from the night's seating.", "Ben 這局坐南位，不是西位：座位跟今晚的坐法。"],
    [{ code: "round_wind_mismatch", params: { player: "Ben", round: "east", round_wind: "south" } },
      "This hand is in the East round, not the South round: the round follows from the night.", "這局是東圈，不是南圈：圈風跟今晚的牌局。"],
    [{ code: "ledger_discarder_is_winner", params: { player: "Ben" } },
      "Ben won this hand and cannot be its discarder.", "Ben 食了這局，不能同時是出銃者。"],
    [{ code: "below_minimum", params: { player: "Ben", faan: 2, min: 3 } },
      "Ben's hand scores 2 faan, below the minimum of 3: it cannot be declared (record a false win if it was).",
      "Ben 的手牌得 2 番，未夠 3 番起糊：不能食糊（如果已經食了，請記作詐糊）。"],
    [{ code: "winners_not_win", params: { result: "draw" } }, "Only a win has winners.", "只有食糊的一局才有食糊者。"],
    [{ code: "offender_not_false_win", params: { result: "draw" } }, "Only a false win has an offender.", "只有詐糊的一局才有詐糊者。"],
    [{ code: "offender_required", params: {} }, "Choose who declared the false win.", "請揀邊個詐糊。"],
    [{ code: "game_not_complete", params: { game: 1, round: "east", dealer: "Ben" } },
      "Game 1 is not over (the East round, Ben dealing): a new game starts after the north round.",
      "第 1 場未打完（東圈，Ben 做莊）：北圈完結後先可以開新一場。"],
    [{ code: "new_game_players", params: { players: "Ann, Ben, Cat, Dan" } },
      "A new game seats the night's four players, each once: Ann, Ben, Cat, Dan.",
      "新一場要坐今晚的四位玩家，每位一次：Ann, Ben, Cat, Dan。"],
    [{ code: "seats_not_new_game", params: { result: "draw" } },
      "Only a new game has players and a first dealer.", "只有新一場才有玩家座位同第一位莊家。"],
    // The seat as a seat's name (東家), never inside another word (not 「坐東家位」).
    [{ code: "co_winner_seat", params: { seat: "east" } },
      "Another winner already sits East: each winner sits at a different seat.", "東家已經有一位贏家：每個贏家要坐不同的位。"]
  ];
  for (const [error, wantEn, wantZh] of cases) {
    const m = mapApiError({ pointer: "/hands/0", message: "(not read)", ...error });
    assert.ok(CODES[error.code], error.code + " has a wording");
    assert.equal(describe(m, en), wantEn, error.code);
    assert.equal(describe(m, zh), wantZh, error.code);
  }
  // A ledger hand that does not win names its winner, at that winner's hand.
  const problem = { type: "/problems/not-a-winning-hand", errors: [{ pointer: "/hands/2/winners/0/hand/tiles", code: "not_winning", params: { tiles: 14, player: "Cat" } }] };
  const [nw] = mapProblem(422, problem);
  assert.equal(nw.pointer, "/hands/2/winners/0/hand/tiles");
  assert.match(describe(nw, en), /^Cat's tiles do not make a winning hand/);
  assert.match(describe(nw, zh), /^Cat 的牌未能食糊/);
  assert.deepEqual(mapProblem(422, { type: "/problems/not-a-winning-hand", errors: [{ pointer: "/hand/tiles", code: "not_winning", params: { tiles: 14 } }] }),
    [{ pointer: "/hand/tiles", key: "err.not_winning" }], "a score's hand: as before");
});

test("a server message the page has no wording for: never English in the Chinese page", () => {
  const zhT = makeT("zh");
  // The trial's case: a house rule's minimum above its limit (no code: worded by where it points).
  const minAbove = mapApiError({ pointer: "/house_rules/min_faan", message: "the minimum (25 faan) is above the limit (10 faan)" });
  const other = mapApiError({ pointer: "/context/x", message: "something new the page has never seen" });
  const server = mapProblem(500, { title: "Internal error" })[0];
  for (const m of [minAbove, other, server]) {
    const text = describe(m, zhT, {});
    assert.doesNotMatch(text, /[A-Za-z]/, "no English: " + text);
    assert.match(text, /[\u4e00-\u9fff]/, "Chinese: " + text);
  }
  // The codes of wins without tiles, in Chinese with the pattern named in Chinese where the page knows it.
  assert.equal(describe(mapApiError({ pointer: "/hands/0/winners/0/declared/patterns/1", code: "pattern_repeated", params: { pattern: "大三元", max: 1 } }), zhT, {}), "大三元一副牌最多計 1 次。");
  // 自摸 ticked on a discard win: the ways of winning in words, no codes.
  assert.equal(
    describe(mapApiError({ pointer: "/hands/0/winners/0/declared/patterns/1", code: "pattern_not_on_win", params: { pattern: "自摸", only_on: "self_draw", win_by: "discard" } }), zhT, {}),
    "自摸只計自摸嘅糊，呢局係出銃：請取消剔選，或者改食糊方式。");
});

test("the summary and the count of house rules follow what was changed", () => {
  // HKMA: minimum 3, limit 10, half spicy, flowers off (rulesets/hkma.toml).
  const r = { id: "hkma", min_faan: 3, limit: 10, bonus_tiles: false };
  const detail = { points: { curve: "half_spicy" } };
  const s = rulesetSummary(r, detail, { min_faan: 5, points: "full_spicy" });
  assert.deepEqual(s[0].params, { min: 5, limit: 10, bonus: false }, "the minimum changed shows");
  assert.deepEqual(s[1].params, { curve: "full_spicy" });
  // Half spicy on a half-spicy ruleset changes nothing.
  assert.equal(houseCount({ points: "half_spicy" }, r, detail), 0);
  // Six changes: three patterns, a switch, an exclusive pair and the minimum.
  assert.equal(houseCount({ patterns: { a: 1, b: 2, c: null }, conditions: { x: true }, exclusive: [["a", "b"]], min_faan: 4 }, r, detail), 6);
});

test("a ruleset's minimum settings in words, and lists joined as each language joins them", () => {
  // GET /v1/compare under house rules min_faan 1: sc-hk13 offers 3 and 0 only (its chart).
  const m = mapApiError({ pointer: "/house_rules/min_faan", message: "sc-hk13 offers minimum settings 3, 0 only, not 1" });
  assert.deepEqual(m, { pointer: "/house_rules/min_faan", key: "err.min_faan_settings", params: { settings: "3 / 0", min: "1" } });
  assert.equal(describe(m, en, {}), "This ruleset offers a minimum of 3 / 0 faan only, not 1.");
  assert.doesNotMatch(describe(m, makeT("zh"), {}), /[A-Za-z,]/);
  assert.equal(makeT("zh")("list.sep"), "、");
});

test("a declared meld's tiles: codes in English, named in Chinese", () => {
  const msg = { key: "said.declared", params: { meld: "Pung", tiles: ["7z", "7z", "7z"] } };
  assert.equal(describe(msg, makeT("en")), "Declared: Pung 7z7z7z.");
  assert.equal(describe({ key: "said.declared", params: { meld: "暗槓", tiles: ["5p", "5p", "5p", "5p"] } }, makeT("zh")), "已加入副露：暗槓 五筒五筒五筒五筒。");
});
