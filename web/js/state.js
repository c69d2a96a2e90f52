// The page's state, in one store. Every field is declared in
// `initialState`; only the named transitions below change it, each a pure
// function from a state and an action to a new state (never a change in
// place). The views draw it (main.js's list, each a `render(state)`); the
// effects (requests, storage, the URL) are in flows.js and main.js and
// dispatch what they learn. Pure (no DOM).
//
// A new feature is new fields here, new transitions and a view: the store
// and the list stay as they are.

import { emptyInput, derive, addTile, addMeld, removeTile, removeMeld, toQuery, EXTRAS, readyToScore } from "./input.js";
import { seatBefore, SEATS } from "./tiles.js";
import { makeT, translate } from "./i18n.js";
import { meldKindLabel, localErrors } from "./format.js";
import { catalogue, rulesetDocument, isCustom, withLimits, withPattern, withCondition, toggleContains, withContains, defaultContains, pruneContains, withExclusive, withoutExclusive, namedPatterns } from "./custom.js";
import { emptyNight, seated, currentDeal, cleanRules, withRule, stageWinner, unstage, undo, parseStake, parseMultiplier, contextFor, winEntry, addHand, playerProblems, MAX_HANDS, startedNight, inForce, isStarted, declaredEntry, faanRange, handRules, seatsFor, seatingOf, playedCount, gameOf } from "./ledger.js";
import { requestKey } from "./requests.js";
import { sharedFrom, handsOf, nightFromTable, conflictOf, guessNext, applyChange, VIEWER_TRANSITIONS } from "./share.js";

export function initialState(opts) {
  const o = opts || {};
  return {
    lang: o.lang || "en",             // the page's language
    input: o.input || emptyInput(),   // what the player entered (input.js); in the URL
    target: "hand",                   // where a palette tap goes: the hand or a meld kind
    said: null,                       // the palette's last message {key, params}
    // What the server told of its rulesets and patterns.
    server: { rulesets: [], info: {}, details: {}, loaded: false, failed: false, patterns: null },
    status: { state: "idle", key: "status.idle", params: undefined },
    shown: null,                      // {view, res, ctx, key, document, chances, seq}: the answer on screen (chances: as asked)
    errors: null,                     // {messages, focus}: the problems on screen
    night: o.night || emptyNight(),   // the table's players, hands and rules (local storage)
    tableAnswer: null,                // the last ledger answer (the coming deal comes from it)
    tableWinner: "",                  // the coming hand's winner, by name ("" until chosen)
    preview: null,                    // {res, ctx, key, seq}: the next hand scored in the Table view
    // The House rules panel: open, the points chooser on "a table", whose contains is shown.
    panel: { open: false, pointsTable: false, editing: "" },
    // The ruleset document box: the document shown (null: hidden) and its status line.
    doc: { document: null, state: "", key: "", params: undefined, hash: "" },
    // A win or a false win being entered by taps (null: none): `kind` "win"
    // or "false_win", its `step`, and what has been tapped so far.
    quick: null,
    undone: [],                       // the hands undone, the last first to come back (redo)
    ruleAsk: 0,                       // a change of rules declined: the controls show the rules again
    // The night shared through the server (share.js; null: kept here only), and the viewer's page.
    shared: o.shared || null,
    viewer: o.viewer || null,
    // The network as the browser says, whether the module on this device answered last, whether a worker serves the page.
    connection: o.connection || { online: typeof navigator === "undefined" || navigator.onLine !== false, local: false, worker: false }
  };
}

// --------------------------------------------------------------- selectors

/** The offline note's key: none while the server answers; else whether this device still scores (sw.js). */
export function offlineNote(c) {
  if (c.local || (!c.online && c.worker)) return "offline.local";
  return c.online ? null : "offline.none";
}

const translators = new Map();
/** The translator of the state's language. */
export function tOf(state) {
  if (!translators.has(state.lang)) translators.set(state.lang, makeT(state.lang));
  return translators.get(state.lang);
}

const derived = new WeakMap();
/** What follows from the hand box (input.js's `derive`), once per input. */
export function handOf(state) {
  if (!derived.has(state.input)) derived.set(state.input, derive(state.input));
  return derived.get(state.input);
}

/** The link to the page with the state's inputs and `change` over them. */
export function urlFor(state, change) {
  const s = { ...state.input, ...change };
  if (change && change.ruleset && !change.view) s.view = state.input.view;
  const q = toQuery(s);
  return q ? "?" + q : "?";
}

/** The chart of the chosen ruleset (GET /v1/rulesets/{id}), once loaded. */
export function chartOf(state) {
  return state.server.details[state.input.ruleset];
}

/** Every pattern: the server's table, then any other of the charts the page holds (the current ruleset's first). */
export function catalogueOf(state) {
  const first = chartOf(state);
  const charts = [first].concat(Object.values(state.server.details).filter((c) => c !== first)).filter(Boolean);
  return catalogue(state.server.patterns, charts);
}

/** The coming deal of a seated night (null: not seated, or the server has not said). */
export function tableDeal(state) {
  return seated(state.night) ? currentDeal(state.night, state.tableAnswer) || guessedDeal(state) : null;
}

/** The player at `seat` in the coming hand of a seated night ("" otherwise). */
export function seatName(state, seat) {
  const deal = tableDeal(state);
  return deal && !deal.complete ? deal.seats[seat] || "" : "";
}

/** The shared discard while winners are staged on it: the next winner's winning tile ("" otherwise). */
export function sharedTile(state) {
  const first = state.night.pending[0];
  return (first && first.hand.winning_tile) || "";
}

/** The page's rules as a ruleset document over the chosen ruleset (null: nothing changed, or its chart not loaded). */
export function houseDocument(state) {
  const chart = chartOf(state);
  const table = cleanRules(state.night.rules);
  if (!chart || !isCustom(state.input.house, table)) return null;
  const T = tOf(state);
  // The document carries both names, so the Chinese page names it in Chinese whichever page made it.
  const names = { name: T("house.custom_name", { name: chart.name }) };
  if (chart.name_zh) names.name_zh = translate("zh", "house.custom_name", { name: chart.name_zh });
  return rulesetDocument(chart, state.input.house, table, { ...names, catalogue: catalogueOf(state) });
}

/** The document Compare sends beside the built-in rulesets (null: none). */
export function compareDocument(state) {
  return state.input.compareCustom ? houseDocument(state) : null;
}

/** The table's own checks of the calculator's hand as a winner: chosen by name, on the shared discard. */
function winnerProblems(state) {
  if (!state.tableWinner) return [{ pointer: "/table/winner", key: "table.err_winner_missing" }];
  const first = state.night.pending[0];
  const d = handOf(state);
  if (first && first.hand.winning_tile && d.winning && d.winning !== first.hand.winning_tile) {
    return [{ pointer: "/hand/winning_tile", key: "err.co_winning_tile", params: { player: state.tableWinner, tile: d.winning, first_player: first.player, shared: first.hand.winning_tile } }];
  }
  return [];
}

/** The calculator's context with its seats named after the coming deal's players. */
function seatedContext(state, deal) {
  const c = state.input.context;
  return contextFor(c, deal, deal.seats[c.seat_wind], c.win_by === "self_draw" ? "" : deal.seats[c.discarder]);
}

/**
 * What stops the calculator's hand from being the coming hand's win: null
 * (no hand is coming: not seated, or the match over), the problems, or none.
 */
export function winProblems(state) {
  const deal = tableDeal(state);
  if (!deal || deal.complete) return null;
  // The hand must be scorable as it stands on the calculator.
  const local = localErrors(handOf(state), "score", true);
  return local.length ? local : winnerProblems(state);
}

/** The calculator's hand as the coming hand's win, once seated (`winSeated`). */
export function winOf(state) {
  return winEntry(state.input, handOf(state), tableDeal(state), state.night);
}

/** The night with one more hand (`{night}`), or `{problems}`: the players not seated, or the night full. */
export function nightWith(state, entry) {
  const problems = playerProblems(state.night.players);
  if (problems.length) return { problems };
  if (state.night.hands.length >= MAX_HANDS) return { problems: [{ pointer: "/table", key: "table.err_full", params: { max: MAX_HANDS } }] };
  // The first hand fixes the night's ruleset and house rules.
  return { night: addHand(startedNight(state.night, state.input), entry) };
}

/** The ruleset a started night is played under, else the page's. */
export function nightRuleset(state) {
  return state.night.ruleset || state.input.ruleset;
}

/**
 * The house rules in force for the coming hand: the ledger's `in_force`
 * for a started night (the rules it started with until the server has
 * answered), else the page's with the table rules.
 */
export function rulesInForce(state) {
  if (isStarted(state.night)) return inForce(state.night, state.tableAnswer) || state.night.house || {};
  return { ...(state.input.house || {}), ...cleanRules(state.night.rules) };
}

/** The faan pad's range for the coming hand: the night's ruleset and the rules in force (null: its chart not loaded). */
export function padRange(state) {
  return faanRange(state.server.details[nightRuleset(state)], rulesInForce(state));
}

/** The players who may still be tapped as winners of the win being entered. */
export function quickCandidates(state) {
  const q = state.quick;
  const players = state.night.players.map((p) => p.trim());
  if (!q || q.kind !== "win") return players;
  const taken = q.done.map((w) => w.player).concat(q.also, q.winner ? [q.winner] : []);
  return players.filter((p) => !taken.includes(p) && p !== q.discarder);
}

/**
 * The win entered by taps as a ledger hand (null until its last faan is
 * tapped). Several winners on one discard in turn order after the
 * discarder, so that a head bump pays the right one.
 */
export function quickEntry(state) {
  const q = state.quick;
  if (!q || q.kind !== "win" || q.step !== "ready") return null;
  const players = state.night.players.map((p) => p.trim());
  let winners = q.done;
  if (q.discarder) {
    const k = players.indexOf(q.discarder);
    const turn = (p) => (players.indexOf(p) - k + 4) % 4;
    winners = winners.slice().sort((a, b) => turn(a.player) - turn(b.player));
  }
  return declaredEntry(winners, q.discarder);
}

/**
 * What the House rules panel would change in a started night, as a change
 * of rules (`{}`: nothing): each house rule (not a table rule) that differs
 * from the one in force, a removed one as null.
 */
export function houseChanges(state) {
  if (!isStarted(state.night)) return {};
  const now = handRules(rulesInForce(state));
  const want = handRules(state.input.house || {});
  const out = {};
  for (const k of new Set(Object.keys(now).concat(Object.keys(want)))) {
    if (JSON.stringify(now[k]) !== JSON.stringify(want[k])) out[k] = k in want ? want[k] : null;
  }
  return out;
}

// ------------------------------------------------------------- transitions

function withInput(state, change) {
  return { ...state, input: { ...state.input, ...change } };
}

// A house rule changed: a document on screen follows it.
function withHouse(state, house) {
  if (house === state.input.house) return state;
  const next = withInput(state, { house });
  return next.doc.document ? documentShown(next) : next;
}

function withProblems(state, messages, focus) {
  // Patterns a server message names by id, named in the page's language.
  if (messages.some((m) => m.params && (m.params.pattern || m.params.via))) {
    const cat = catalogueOf(state);
    messages = messages.map((m) => namedPatterns(m, cat));
  }
  return { ...state, errors: { messages, focus: !!focus }, status: { state: "error", key: "status.problems", params: { n: messages.length } } };
}

function withStatus(state, st, key, params) {
  return { ...state, status: { state: st, key, params } };
}

function documentShown(state) {
  const made = houseDocument(state);
  return { ...state, doc: { document: made, state: made ? "shown" : "none", key: made ? "" : "house.doc_nothing", params: undefined, hash: "" } };
}

// The night after a hand is kept: the calculator cleared for the next one
// (after a win), at the coming deal's round wind, its winner chosen again.
function nextHand(state) {
  const night = state.night;
  const deal = tableDeal(state);
  const last = night.hands[night.hands.length - 1];
  let input = state.input;
  if (last && last.result === "win") input = { ...emptyInput(), ruleset: input.ruleset, house: input.house, view: input.view };
  if (deal) input = { ...input, context: { ...input.context, round_wind: deal.round_wind } };
  return { ...state, input, tableWinner: "", preview: null };
}

// The controls of the House rules panel that are not patterns, switches,
// contains or exclusive pairs, as typed: the house rules they make.
function houseFromControls(state, v) {
  const h = {};
  if (v.min_faan.trim() !== "") h.min_faan = Number(v.min_faan.trim());
  if (v.limit.trim() !== "") h.limit = Number(v.limit.trim());
  if (v.flowers !== "") h.flowers = v.flowers === "true";
  if (v.points === "table") {
    const nums = v.points_table.split(/[\s,]+/).filter(Boolean).map(Number);
    if (nums.length && nums.every((x) => Number.isInteger(x) && x >= 0)) h.points = nums;
  } else if (v.points !== "") h.points = v.points;
  if (v.discard_payment !== "") h.discard_payment = v.discard_payment;
  return withLimits(h, chartOf(state), v.limits_add === "" ? null : v.limits_add === "true", v.limits_pay || null);
}

const KEPT_HOUSE = ["patterns", "conditions", "contains", "exclusive"];

/** The named transitions: `(state, action) => state`. */
export const TRANSITIONS = {
  langChosen: (s, a) => ({ ...s, lang: a.lang }),

  // ------------------------------------------------ the hand and the win
  typed: (s, a) => withInput(s, { text: a.text, winPick: sharedTile(s) }),
  handCleared: (s) => withInput({ ...s, said: null }, { text: "", winPick: "" }),
  winPicked: (s, a) => withInput(s, { winPick: a.tile }),
  targetChosen: (s, a) => ({ ...s, target: a.target }),
  tileTapped(s, a) {
    const tg = s.target;
    const kind = tg.startsWith("kong") ? "kong" : tg;
    const r = tg === "hand" ? addTile(s.input, a.tile) : addMeld(s.input, kind, a.tile, { concealed: tg === "kong-concealed", added: tg === "kong-added" });
    if (r.refused) return { ...s, said: { key: "refused." + r.refused.code, params: { tile: r.refused.tile } } };
    if (r.meld) return { ...s, input: r.state, target: "hand", said: { key: "said.declared", params: { meld: meldKindLabel(r.meld, tOf(s)), tiles: r.meld.tiles } } };
    return { ...s, input: { ...r.state, winPick: sharedTile(s) }, said: { key: "said.added", params: { tile: a.tile } } };
  },
  tileRemoved: (s, a) => ({ ...s, said: null, input: removeTile(s.input, a.index) }),
  meldRemoved: (s, a) => ({ ...s, input: removeMeld(s.input, a.index) }),
  flowerToggled(s, a) {
    const fl = s.input.flowers;
    return withInput(s, { flowers: fl.includes(a.flower) ? fl.filter((f) => f !== a.flower) : fl.concat([a.flower]) });
  },
  /** The win controls as read (`a.fields`: the selects' values, `extras` the boxes ticked). */
  contextChanged(s, a) {
    const f = a.fields;
    const c = { ...s.input.context, seat_wind: f.seat_wind, round_wind: f.round_wind };
    const wasSelfDraw = c.win_by === "self_draw";
    c.win_by = f.win_by;
    c.discarder = c.win_by === "self_draw" ? "" : f.discarder;
    // Switching to a discard: the player before the winner discarded.
    if (c.win_by !== "self_draw" && (wasSelfDraw || !c.discarder)) c.discarder = c.discarder || seatBefore(c.seat_wind);
    c.replacement = f.replacement;
    c.liable = f.liable;
    for (const e of EXTRAS) c[e] = f.extras.includes(e);
    return withInput(s, { context: c });
  },
  rulesetChosen: (s, a) => withInput(s, { ruleset: a.ruleset }),
  seenTyped: (s, a) => withInput(s, { seen: a.text }),
  drawsTyped: (s, a) => withInput(s, { draws: a.text }),
  selfDrawOnlySet: (s, a) => withInput(s, { selfDrawOnly: a.on }),
  // Stepping back a shanten is a kind of hand change: it goes with them.
  handChangesSet: (s, a) => withInput(s, { handChanges: a.on, shantenDown: a.on && s.input.shantenDown }),
  shantenDownSet: (s, a) => withInput(s, { shantenDown: a.on }),
  // The next hand's preview belongs to the Table view.
  viewChosen: (s, a) => ({ ...withInput(s, { view: a.view }), preview: a.view === "table" ? s.preview : null }),
  /** A link to a view of the page (`?view=...&rules=...`). */
  linkFollowed: (s, a) => TRANSITIONS.viewChosen(withInput(s, { ruleset: a.ruleset }), a),

  // ------------------------------------------------ the House rules panel
  housePanelToggled: (s, a) => ({ ...s, panel: { ...s.panel, open: a.open } }),
  /** The panel's plain controls as typed (`a.values`): patterns, switches, contains and pairs kept. */
  houseControls(s, a) {
    const kept = {};
    for (const k of KEPT_HOUSE) if (s.input.house[k] != null) kept[k] = s.input.house[k];
    const next = { ...s, panel: { ...s.panel, pointsTable: a.values.points === "table" } };
    return withHouse(next, { ...houseFromControls(s, a.values), ...kept });
  },
  patternSet: (s, a) => withHouse(s, pruneContains(withPattern(s.input.house, a.id, a.value), chartOf(s))),
  conditionSet: (s, a) => withHouse(s, withCondition(s.input.house, a.key, a.value)),
  containsToggled: (s, a) => withHouse(s, toggleContains(s.input.house, chartOf(s), catalogueOf(s), a.of, a.id, a.on)),
  containsReset: (s, a) => withHouse(s, withContains(s.input.house, chartOf(s), catalogueOf(s), a.id, defaultContains(chartOf(s), catalogueOf(s), a.id))),
  containsEditing: (s, a) => ({ ...s, panel: { ...s.panel, editing: a.id } }),
  exclusiveAdded: (s, a) => withHouse(s, withExclusive(s.input.house, chartOf(s), a.a, a.b)),
  exclusiveRemoved: (s, a) => withHouse(s, withoutExclusive(s.input.house, a.index)),
  compareCustomSet: (s, a) => withInput(s, { compareCustom: a.on }),

  // ------------------------------------------------ the ruleset document
  documentShown,
  /** The server's word on the document shown: `a.hash` (it holds) or `a.problems` (it does not). */
  documentChecked(s, a) {
    if (a.problems) return withProblems({ ...s, doc: { ...s.doc, state: "invalid" } }, a.problems, true);
    return { ...s, doc: { ...s.doc, state: "valid", key: "house.doc_valid", params: { hash: a.hash.slice(0, 12) }, hash: a.hash } };
  },
  documentUnreachable: (s) => ({ ...s, doc: { ...s.doc, key: "status.unreachable", params: undefined } }),
  documentCopied: (s) => ({ ...s, doc: { ...s.doc, key: "house.copied", params: undefined } }),
  importStarted: (s) => ({ ...s, doc: { ...s.doc, state: "importing", key: "house.importing", params: undefined } }),
  // The status line always describes this attempt: a refusal changes nothing and says so.
  // The import's problems belong to the import: shown at its box, never as the hand's (the answer on screen and the status line stay).
  importRefused(s, a) {
    const refused = withProblems({ ...s, doc: { ...s.doc, state: "import-refused", key: "house.import_refused", params: { n: a.messages.length } } }, a.messages, true);
    return { ...refused, status: s.status, errors: { ...refused.errors, scope: "import" } };
  },
  /** A document read (custom.js `houseFromDocument`): its ruleset, house rules and table rules set. */
  imported(s, a) {
    const r = a.result;
    let night = s.night;
    for (const [k, v] of Object.entries(r.table)) night = withRule(night, k, v);
    const doc = { ...s.doc, state: "imported", key: r.skipped.length ? "house.imported_skipped" : "house.imported", params: { keys: r.skipped.join(", ") } };
    return { ...withInput(s, { ruleset: r.ruleset, house: r.house }), night: { ...night, rules: cleanRules(night.rules) }, errors: null, doc };
  },

  // ------------------------------------------------ what the server said
  rulesetsLoaded(s, a) {
    const info = { ...s.server.info };
    for (const x of a.rulesets) info[x.id] = x;
    return { ...s, server: { ...s.server, rulesets: a.rulesets, info, loaded: true } };
  },
  rulesetsFailed: (s) => ({ ...s, server: { ...s.server, failed: true, loaded: true } }),
  detailLoaded: (s, a) => ({ ...s, server: { ...s.server, details: { ...s.server.details, [a.id]: a.detail } } }),
  patternsLoaded: (s, a) => ({ ...s, server: { ...s.server, patterns: a.table } }),

  requested: (s, a) => withStatus(s, "loading", a.loadingKey),
  /**
   * A view's answer (`res` to the request `key`, sent with the context
   * `ctx`; `status` what the status line says of it). `night`: the night
   * sent with a new hand, kept now the server has taken it.
   */
  answered(s, a) {
    let next = { ...s, errors: null, shown: { view: a.view, res: a.res, ctx: a.ctx, key: a.key, document: a.document || null, chances: a.chances || null, seq: a.seq } };
    if (a.night) next = { ...next, night: a.night };
    if (a.view === "table") next = { ...next, tableAnswer: a.res };
    if (a.view === "rules") next = { ...next, server: { ...next.server, details: { ...next.server.details, [a.res.id]: a.res } } };
    if (a.night) next = nextHand(next);
    // A hand kept: the taps are done; a hand redone comes off the undone list, any other clears it.
    if (a.night) next = { ...next, quick: null, undone: a.redo ? s.undone.slice(0, -1) : [] };
    return withStatus(next, "ok", a.status.key, a.status.params);
  },
  /** A view's request refused: its problems shown; the answer on screen goes, unless a hand was being added (the table stays). */
  refused: (s, a) => withProblems(a.keepShown ? s : { ...s, shown: null }, a.messages, a.focus),
  unreachable: (s) => withStatus(s, "error", "status.unreachable"),
  problems: (s, a) => withProblems(s, a.messages, a.focus),
  /** The hand is not ready for the view: nothing to show but what is on screen. */
  waiting(s) {
    const next = s.errors ? { ...s, errors: null } : s;
    return next.shown ? next : withStatus(next, "idle", "status.idle");
  },
  previewed(s, a) {
    const next = { ...s, errors: null, preview: { res: a.res, ctx: a.ctx, key: a.key, seq: a.seq } };
    return withStatus(next, "ok", "status.next_hand", { player: s.tableWinner, faan: a.res.total_faan, name: a.name });
  },
  previewHidden: (s) => (s.preview ? { ...s, preview: null } : s),
  previewRefused: (s, a) => withProblems({ ...s, preview: null }, a.messages, false),
  tableRefreshed: (s, a) => ({ ...s, tableAnswer: a.answer }),

  // ------------------------------------------------ the night
  playerNamed(s, a) {
    if (s.night.hands.length) return s;
    const players = s.night.players.slice();
    players[a.index] = a.name;
    return { ...s, night: { ...s.night, players } };
  },
  /** The winner and discarder chosen by name: the calculator's seat wind and discarder follow. */
  winnerChosen(s, a) {
    const deal = tableDeal(s);
    if (!deal) return s;
    return withInput({ ...s, tableWinner: a.winner }, { context: contextFor(s.input.context, deal, a.winner, a.discarder) });
  },
  /** The calculator's seat wind and discarder as the coming deal seats its players (a win about to be added). */
  winSeated(s) {
    const deal = tableDeal(s);
    return deal ? withInput(s, { context: seatedContext(s, deal) }) : s;
  },
  /**
   * One more winner on the same discard (一炮雙響): the calculator's hand
   * staged, the box cleared for the next winner's hand, seated at the next
   * player after the discarder who has not won yet, on the same tile.
   */
  cowinnerStaged(s) {
    const problems = winProblems(s);
    if (!problems) return s;
    if (problems.length) return withProblems(s, problems, true);
    const deal = tableDeal(s);
    const ctx = seatedContext(s, deal);
    const seatedState = withInput(s, { context: ctx });
    const r = stageWinner(s.night, seatedState.input, handOf(seatedState), deal);
    if (r.problem) return withProblems(seatedState, [r.problem], true);
    const won = r.night.pending.map((w) => w.player);
    const k = SEATS.indexOf(ctx.discarder);
    const next = [1, 2, 3].map((i) => SEATS[(k + i) % 4]).find((seat) => !won.includes(deal.seats[seat])) || ctx.seat_wind;
    const input = { ...seatedState.input, text: "", winPick: r.night.pending[0].hand.winning_tile || "", flowers: [], context: { ...ctx, seat_wind: next } };
    return withStatus({ ...s, input, night: r.night, errors: null, tableWinner: "", preview: null }, "idle", "table.staged", { player: won[won.length - 1], n: won.length });
  },
  unstaged: (s, a) => ({ ...s, night: unstage(s.night, a.index), errors: null }),
  /**
   * A table rule as chosen (`a.raw`, the control's value): kept with the
   * night, whose answer is then out of date (the rules change the money and
   * the coming deal); or its error shown at the control.
   */
  tableRuleSet(s, a) {
    const key = a.key;
    const parsed = key === "stake" ? parseStake(a.raw) : key === "dealer_multiplier" ? parseMultiplier(a.raw) : null;
    if (parsed && parsed.error) return withProblems(s, [parsed.error], false);
    let value;
    if (parsed) value = parsed.value;
    else if (key.startsWith("dealer_keeps") || key === "co_winners_pay") value = a.raw === "" ? undefined : a.raw === "true";
    else value = a.raw || undefined;
    let next = { ...s, night: withRule(s.night, key, value) };
    if (s.errors) next = withStatus({ ...next, errors: null }, "idle", "status.idle");
    if (seated(next.night) && next.night.hands.length) next = { ...next, tableAnswer: null };
    return next;
  },
  handUndone: (s) => (s.night.hands.length ? { ...s, night: undo(s.night), tableAnswer: null, undone: s.undone.concat([s.night.hands[s.night.hands.length - 1]]) } : s),
  /** A new night: the same players and table rules, no hands. */
  nightStarted: (s) => ({ ...s, night: { ...emptyNight(), players: s.night.players.slice(), rules: s.night.rules }, tableAnswer: null, quick: null, undone: [] }),
  /** The Table view with no hands yet: nothing to ask the server. */
  tableEmpty(s) {
    if (s.input.view !== "table") return s;
    return withStatus({ ...s, shown: null }, "idle", seated(s.night) ? "status.table_empty" : "table.need_players");
  },

  // ------------------------------------------------ a hand by taps
  /** "Add a win": who won comes first. */
  quickStarted: (s) => (tableDeal(s) && !tableDeal(s).complete ? { ...s, quick: { kind: "win", step: "winner", winner: "", discarder: null, done: [], also: [], ticked: [] } } : s),
  /** "False win": who, then confirm. */
  falseWinStarted: (s) => (tableDeal(s) && !tableDeal(s).complete ? { ...s, quick: { kind: "false_win", step: "who", offender: "" } } : s),
  quickCancelled: (s) => (s.quick ? { ...s, quick: null } : s),
  /** A player tapped: the winner (then how, or the faan of a further winner on the same discard), or the false win's offender. */
  quickPlayer(s, a) {
    const q = s.quick;
    if (!q) return s;
    if (q.kind === "false_win") return q.step === "who" ? { ...s, quick: { ...q, step: "confirm", offender: a.player } } : s;
    if (q.step !== "winner" || !quickCandidates(s).includes(a.player)) return s;
    return { ...s, quick: { ...q, winner: a.player, step: q.done.length ? "faan" : "how" } };
  },
  /** How it was won: `a.discarder` "" a self-draw, else who discarded. */
  quickHow(s, a) {
    const q = s.quick;
    if (!q || q.kind !== "win" || q.step !== "how" || a.discarder === q.winner) return s;
    return { ...s, quick: { ...q, discarder: a.discarder, step: "faan", ticked: [] } };
  },
  /** One more winner on this discard (its faan asked after this winner's). */
  quickAlso(s, a) {
    const q = s.quick;
    if (!q || q.kind !== "win" || q.step !== "faan" || !q.discarder) return s;
    if (q.also.includes(a.player)) return { ...s, quick: { ...q, also: q.also.filter((p) => p !== a.player) } };
    if (q.done.length + q.also.length + 1 >= 3 || !quickCandidates(s).includes(a.player)) return s;
    return { ...s, quick: { ...q, also: q.also.concat([a.player]) } };
  },
  /**
   * The faan tapped (`a.faan`, or `a.limit`, or `a.patterns` ticked): this
   * winner counted; the next one on the same discard, or the hand ready.
   */
  quickFaan(s, a) {
    const q = s.quick;
    if (!q || q.kind !== "win" || (q.step !== "faan" && q.step !== "patterns")) return s;
    const declared = a.limit ? { player: q.winner, limit: true } : a.patterns ? { player: q.winner, patterns: a.patterns } : { player: q.winner, faan: a.faan };
    const done = q.done.concat([declared]);
    if (q.also.length) return { ...s, quick: { ...q, done, winner: q.also[0], also: q.also.slice(1), step: "faan", ticked: [] } };
    return { ...s, quick: { ...q, done, step: "ready" } };
  },
  /** "Tick the patterns" in place of the faan pad, and each pattern ticked (`a.id`; a pattern that repeats counts up to `a.max`). */
  quickPatterns: (s) => (s.quick && s.quick.step === "faan" ? { ...s, quick: { ...s.quick, step: "patterns", ticked: [] } } : s),
  /** The server's total of the patterns ticked (`a.key`: which ticks it is for; ticks.js). */
  quickTotal: (s, a) => (s.quick && s.quick.step === "patterns" ? { ...s, quick: { ...s.quick, total: { key: a.key, faan: a.faan, limit: a.limit, below: !!a.below } } } : s),
  quickTicked(s, a) {
    const q = s.quick;
    if (!q || q.step !== "patterns") return s;
    const n = q.ticked.filter((id) => id === a.id).length;
    const ticked = n >= (a.max || 1) ? q.ticked.filter((id) => id !== a.id) : q.ticked.concat([a.id]);
    return { ...s, quick: { ...q, ticked } };
  },
  /** One step back (from the first: cancelled). */
  quickBack(s) {
    const q = s.quick;
    if (!q) return s;
    if (q.kind === "false_win") return { ...s, quick: q.step === "confirm" ? { ...q, step: "who", offender: "" } : null };
    if (q.step === "patterns") return { ...s, quick: { ...q, step: "faan", ticked: [] } };
    if (q.step === "faan" && q.done.length) {
      const last = q.done[q.done.length - 1];
      return { ...s, quick: { ...q, done: q.done.slice(0, -1), winner: last.player, also: [q.winner].concat(q.also), step: "faan" } };
    }
    if (q.step === "faan") return { ...s, quick: { ...q, step: "how", discarder: null, also: [] } };
    if (q.step === "how") return { ...s, quick: { ...q, step: "winner", winner: "" } };
    return { ...s, quick: null };
  },
  /** The server refused the hand entered by taps: back to its last faan, nothing kept. */
  quickRefused(s) {
    const q = s.quick;
    if (!q || q.step !== "ready") return s;
    const last = q.done[q.done.length - 1];
    return { ...s, quick: { ...q, done: q.done.slice(0, -1), winner: last.player, step: "faan" } };
  },
  /** A change of rules during a night declined: the controls show the rules in force again. */
  ruleChangeDeclined: (s) => ({ ...s, ruleAsk: s.ruleAsk + 1 }),

  // ------------------------------------------------ the page
  /** Everything entered goes (the night stays). */
  reset: (s) => ({ ...s, input: emptyInput(), target: "hand", said: null, shown: null, preview: null, errors: null, status: { state: "idle", key: "status.idle", params: undefined }, panel: { ...s.panel, pointsTable: false } }),
  example: (s) => withInput(TRANSITIONS.reset(s), { text: "123456m78p23455s9p" })
};

// ------------------------------------------------ the shared night

/** The coming deal as this page guessed it for hands the server has not answered yet (share.js `guessNext`). */
function guessedDeal(state) {
  const g = state.shared && (state.shared.guesses || []).find((x) => x.hands === state.night.hands.length);
  if (!g) return null;
  const hands = state.night.hands;
  return { ...g.next, hand: playedCount(hands) + 1, game: gameOf(hands), seats: seatsFor(seatingOf(state.night), g.next.dealer) };
}

// Whether the dealer keeps the deal: the night's table rules, else the ruleset's (kept where unknown).
function keepsOf(state) {
  const t = (chartOf(state) && chartOf(state).table) || {};
  const r = rulesInForce(state);
  const pick = (k) => (typeof r[k] === "boolean" ? r[k] : t[k] !== false);
  return { on_win: pick("dealer_keeps_on_win"), on_draw: pick("dealer_keeps_on_draw") };
}

// The server's TABLE as the night's answer: the coming deal, and in the Table view the table on screen.
function withTable(s, table, key, seq) {
  let next = { ...s, tableAnswer: table.ledger };
  const held = key || requestKey({ ...s, night: { ...s.night, hands: handsOf(table) } }, "table");
  if (s.input.view === "table") next = { ...next, errors: null, shown: { view: "table", res: table.ledger, ctx: { ...s.input.context }, key: held, document: null, seq } };
  return next;
}

const withShared = (s, change) => ({ ...s, shared: { ...s.shared, ...change } });

// The server's table taken as the night's (nothing of this page's waits): its hands, version and answer.
function adopted(s, table, key, seq) {
  const hands = handsOf(table);
  const next = withShared({ ...s, night: { ...s.night, hands: hands.slice(), pending: [] } }, { table, version: table.version, acked: hands.length, queue: [], guesses: [], conflict: null });
  return withTable(next, table, key, seq);
}

// A change the server answered with (`Prefer: return=minimal`) or a TABLE, over the table this page holds.
function tableAfter(held, kind, answer) {
  if (held && answer && answer.version <= held.version) return held;
  if (answer && answer.request && answer.ledger && Array.isArray(answer.ledger.hands)) return answer;
  return applyChange(held, kind, answer);
}

/** The shared night's transitions: created, a hand sent or waiting, a change from the stream, a conflict and its choice. */
const SHARED_TRANSITIONS = {
  /** The night made a shared table (`a.answer`: the 201 of POST /v1/tables). */
  sharedCreated: (s, a) => withStatus({ ...s, shared: sharedFrom(a.answer.id, a.answer.key, a.answer.table), tableAnswer: a.answer.table.ledger }, "ok", "share.created"),
  /** A scorer's link opened here (`a.table` read with `a.id`, `a.key`): the night, its ruleset and rules are the table's. */
  sharedJoined(s, a) {
    const n = nightFromTable(a.table);
    const input = { ...s.input, ruleset: n.ruleset || s.input.ruleset, house: n.house, view: "table" };
    return withTable({ ...s, input, night: n.night, tableWinner: "", preview: null, quick: null, undone: [], shared: sharedFrom(a.id, a.key, a.table) }, a.table, a.key2 || "", a.seq);
  },
  /** Which link the share box shows: "view" or "score". */
  shareLinkShown: (s, a) => withShared(s, { shown: a.which }),
  /**
   * The server took a hand (`a.answer`: the change, or the new TABLE; `a.key`
   * the request key of its hands). `a.night`: the night with the hand sent
   * at once; without it, the first waiting hand was the one taken.
   */
  sharedSent(s, a) {
    const sh = s.shared;
    const table = tableAfter(sh.table, "hand", a.answer);
    if (!table) return s;
    const queue = a.night ? sh.queue : sh.queue.slice(1);
    const acked = handsOf(table).length;
    let next = { ...s, night: { ...(a.night || s.night), hands: handsOf(table).concat(queue) } };
    next = withShared(next, { table, version: table.version, acked, queue, offline: false, guesses: (sh.guesses || []).filter((g) => g.hands > acked) });
    next = withTable(next, table, a.key, a.seq);
    if (a.night) next = { ...nextHand(next), quick: null, undone: [] };
    return queue.length ? withStatus(next, "loading", "share.sending", { n: queue.length }) : withStatus(next, "ok", "share.sent", { n: playedCount(handsOf(table)) });
  },
  /**
   * A hand kept here until the server takes it (`a.night`: the night with
   * `a.entry`): the calculator cleared for the next, whose deal is guessed.
   */
  sharedQueued(s, a) {
    const sh = s.shared;
    const deal = tableDeal(s);
    const guess = deal ? [{ hands: a.night.hands.length, next: guessNext(deal, a.entry, seatingOf(s.night), keepsOf(s)) }] : [];
    const queue = sh.queue.concat([a.entry]);
    const next = nextHand(withShared({ ...s, night: a.night, errors: null, quick: null, undone: [] }, { queue, guesses: (sh.guesses || []).concat(guess) }));
    return withStatus(next, sh.offline ? "error" : "loading", sh.offline ? "share.offline" : "share.sending", { n: queue.length });
  },
  /** The server cannot be reached: the waiting hands stay. */
  sharedOffline: (s) => withStatus(withShared(s, { offline: true }), "error", "share.offline", { n: s.shared.queue.length }),
  /**
   * A change from the table's event stream (`a.kind` "hand" or "undo" with
   * `a.change`, or "table" with `a.table`): taken as the night when nothing
   * of this page's waits; else only remembered, and the waiting hands meet
   * it when they are sent (a 412: both scorers added at one version).
   */
  sharedStream(s, a) {
    const sh = s.shared;
    if (!sh) return s;
    const held = sh.table || null;
    const table = a.kind === "table" ? (held && a.table.version <= held.version ? null : a.table) : applyChange(held, a.kind, a.change);
    if (!table) return s;
    if (sh.queue.length || sh.conflict || a.busy) return withShared(s, { table: sh.table && sh.table.version > table.version ? sh.table : table });
    if (table.version === sh.version) return withShared(s, { table });
    return adopted({ ...s, tableWinner: "", preview: null }, table, a.key, a.seq);
  },
  /**
   * Another scorer changed the table first (`a.table`, the 412's TABLE):
   * shown when both added hands from one version; with nothing of this
   * page's left to send, the server's night is simply taken; when the other
   * scorer only took hands back, this page's follow them.
   */
  sharedConflict(s, a) {
    const c = conflictOf(s.night, s.shared, a.table);
    if (!c.mine.length) return withStatus(adopted(s, a.table, a.key, a.seq), "ok", "share.in_sync", { v: a.table.version });
    if (!c.theirs.length) {
      const server = handsOf(a.table);
      const night = { ...s.night, hands: server.concat(c.mine) };
      return withShared({ ...s, night }, { table: a.table, version: a.table.version, acked: server.length, queue: c.mine, guesses: [], conflict: null });
    }
    return withStatus(withShared(s, { conflict: c, table: a.table, offline: false }), "error", "share.conflict");
  },
  /**
   * The player's choice on a conflict: `a.keep` "new" this page's hands
   * after the other scorer's, without those equal to one of theirs; "all"
   * every one of them; else the server's night only. The red line goes.
   */
  conflictResolved(s, a) {
    const c = s.shared.conflict;
    if (!c) return s;
    const server = handsOf(c.table);
    const mine = a.keep === "all" ? c.mine : a.keep === "new" ? c.mine.filter((h, i) => c.same[i] < 0) : [];
    const night = { ...s.night, hands: server.concat(mine), pending: [] };
    let next = withShared({ ...s, night, tableAnswer: c.table.ledger, tableWinner: "", preview: null, errors: null }, { table: c.table, version: c.table.version, acked: server.length, queue: mine, conflict: null, guesses: [] });
    next = withTable(next, c.table, a.key, a.seq);
    return mine.length ? withStatus(next, "loading", "share.sending", { n: mine.length }) : withStatus(next, "ok", "share.in_sync", { v: c.table.version });
  },
  /** The first waiting hand refused by the server (`a.messages`): it goes, shown; the ones after it wait on. */
  sharedRefused(s, a) {
    const sh = s.shared;
    const hands = s.night.hands.slice(0, sh.acked).concat(s.night.hands.slice(sh.acked + 1));
    return withProblems(withShared({ ...s, night: { ...s.night, hands } }, { queue: sh.queue.slice(1), guesses: [] }), a.messages, false);
  },
  /** The last waiting hand taken back before it was sent. */
  sharedUndone(s) {
    const sh = s.shared;
    if (!sh.queue.length) return s;
    return withShared({ ...s, night: undo(s.night) }, { queue: sh.queue.slice(0, -1), guesses: (sh.guesses || []).filter((g) => g.hands < s.night.hands.length) });
  },
  /** The server's night replaces this page's (`a.answer`: a TABLE, or the change of an undo; nothing waits here). */
  sharedReplaced(s, a) {
    const table = tableAfter(s.shared.table, "undo", a.answer || a.table);
    return table ? adopted(s, table, a.key, a.seq) : s;
  },
  /** The night is kept here only again. */
  sharedLeft: (s) => ({ ...s, shared: null })
};

// The connection (offline.js follows it): unchanged when nothing changed, so nothing redraws.
const withConnection = (s, c) => (Object.keys(c).every((k) => s.connection[k] === c[k]) ? s : { ...s, connection: { ...s.connection, ...c } });
const OFFLINE_TRANSITIONS = {
  connectionChanged: (s, a) => withConnection(s, { online: a.online }),
  /** An answer came: from the module on this device (`a.local`), or from the server. */
  engineAnswered: (s, a) => withConnection(s, { local: a.local }),
  workerReady: (s) => withConnection(s, { worker: true })
};

Object.assign(TRANSITIONS, SHARED_TRANSITIONS, VIEWER_TRANSITIONS, OFFLINE_TRANSITIONS);

/** The state after `action` (`{type, ...}`, `type` a transition's name). */
export function reduce(state, action) {
  const t = TRANSITIONS[action.type];
  if (!t) throw new Error("no transition " + action.type);
  return t(state, action);
}

/**
 * The store: `get()`, `dispatch(action)` (the new state, given to each
 * listener with the one before), `subscribe(listener)`.
 */
export function createStore(state) {
  let current = state;
  const listeners = [];
  return {
    get: () => current,
    dispatch(action) {
      const prev = current;
      current = reduce(current, action);
      if (current !== prev) for (const l of listeners) l(current, prev);
      return current;
    },
    subscribe(l) { listeners.push(l); }
  };
}

/** Whether the hand is ready for the table's preview (a seated night, a winner chosen, a scorable hand). */
export function previewReady(state) {
  const deal = tableDeal(state);
  return state.input.view === "table" && !!deal && !deal.complete && !!state.tableWinner && readyToScore(state.input, handOf(state));
}
