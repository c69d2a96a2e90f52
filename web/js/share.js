// A night shared through the server (POST /v1/tables): its links, the
// scorer's hands waiting to be sent, a conflict with another scorer, and
// what the viewer's pages (/t/{id}, /g/{id}) hold. Pure apart from
// `loadShared`/`saveShared`, which take the storage as an argument.
//
// The scorer's hands are sent one at a time, in order, each with
// `If-Match` on the version the last one left. A hand the server has not
// taken stays in `queue` (and in local storage) until it has: nothing is
// dropped or merged without the player choosing it.

import { cleanRules, TABLE_RULES } from "./ledger.js";

const STORE_KEY = "faan.shared";
// A table id or key: 128 bits, base64url without padding (docs/tables.md).
const TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The shared night of the page (`state.shared`), from a 201 of POST
 * /v1/tables or a table joined with its key: `acked` hands are on the
 * server at `version`; `queue` are the hands after them, not yet taken.
 */
export function sharedFrom(id, key, table) {
  return { id, key, table, version: table.version, acked: handsOf(table).length, queue: [], conflict: null, offline: false, shown: "view", guesses: [] };
}

/** The hands of a TABLE's stored request. */
export function handsOf(table) {
  return (table && table.request && Array.isArray(table.request.hands)) ? table.request.hands : [];
}

/** The id and key a path and fragment name: `/t/{id}#key={key}`, `/g/{id}` (null: neither). */
export function linkOf(pathname, hash) {
  const m = /^\/([tg])\/([^/]+)\/?$/.exec(pathname || "");
  if (!m || !TOKEN.test(m[2])) return null;
  const k = /(?:^#|&)key=([^&]+)/.exec(hash || "");
  const key = k && TOKEN.test(k[1]) ? k[1] : null;
  return { kind: m[1] === "t" ? "table" : "group", id: m[2], key };
}

/** The scorer's join fragment the calculator reads: `#join={id}&key={key}` (null: none). */
export function joinOf(hash) {
  const j = /(?:^#|&)join=([^&]+)/.exec(hash || "");
  const k = /(?:^#|&)key=([^&]+)/.exec(hash || "");
  if (!j || !k || !TOKEN.test(j[1]) || !TOKEN.test(k[1])) return null;
  return { id: j[1], key: k[1] };
}

/** The links of a shared night, absolute under `origin`: the view link and the scorer's (the key in the fragment). */
export function links(origin, shared) {
  return { view: origin + "/t/" + shared.id, score: origin + "/t/" + shared.id + "#key=" + shared.key };
}

/**
 * The night and the page's rules as a table stores them: the ruleset, the
 * players and hands, the house rules split into the calculator's and the
 * table's (TABLE_RULES).
 */
export function nightFromTable(table) {
  const req = (table && table.request) || {};
  const house = req.house_rules || {};
  const rules = {};
  const rest = {};
  for (const [k, v] of Object.entries(house)) (TABLE_RULES.includes(k) ? rules : rest)[k] = v;
  const players = Array.isArray(req.players) ? req.players.slice(0, 4).map(String) : ["", "", "", ""];
  while (players.length < 4) players.push("");
  const night = { players, hands: handsOf(table).slice(), pending: [], rules: cleanRules(rules) };
  // Its rules fixed as the table started with them: the ledger says which are in force now.
  if (night.hands.length && req.ruleset) { night.ruleset = req.ruleset; night.house = { ...house }; }
  return { ruleset: req.ruleset, house: rest, night };
}

/** JSON with every object's keys in order: the server writes a stored hand's keys in its own order. */
export function canonical(v) {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (v && typeof v === "object") return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  return JSON.stringify(v);
}

/** How many hands two lists share from the start. */
export function commonPrefix(a, b) {
  let n = 0;
  while (n < a.length && n < b.length && canonical(a[n]) === canonical(b[n])) n++;
  return n;
}

/**
 * A 412's conflict: the server's TABLE against what this scorer had.
 * `from`: the hands both hold; the server's hands after it are the other
 * scorer's (`theirs`, with their ledger rows); `mine`: this scorer's hands
 * the server does not hold (taken back there, or waiting here); `same[i]`:
 * the index in `theirs` of the hand equal to `mine[i]` (each of theirs
 * matched once), or -1.
 */
export function conflictOf(night, shared, table) {
  const server = handsOf(table);
  // Both hold what the server had taken from this page; a hand of mine equal to theirs after it is still shown as mine.
  const from = Math.min(commonPrefix(server, night.hands), shared && Number.isInteger(shared.acked) ? shared.acked : night.hands.length);
  const rows = (table.ledger && Array.isArray(table.ledger.hands)) ? table.ledger.hands : [];
  const mine = night.hands.slice(from);
  const theirHands = server.slice(from).map(canonical);
  const taken = new Set();
  const same = mine.map((h) => {
    const c = canonical(h);
    const k = theirHands.findIndex((t, j) => t === c && !taken.has(j));
    if (k >= 0) taken.add(k);
    return k;
  });
  return { table, from, theirs: rows.slice(from), mine, same };
}

/**
 * The coming deal after `entry`, as this page guesses it while the server
 * cannot say (offline): the dealer keeps the deal after winning or a draw
 * where the rules say so, else it passes to the next player; the round
 * moves on when it comes back to the first dealer; a false win moves
 * nothing. The server's answer replaces it once the hand is sent.
 */
export function guessNext(deal, entry, players, keeps) {
  const dealer = deal.dealer;
  if (entry.result === "new_game") {
    const seating = Array.isArray(entry.players) && entry.players.length === 4 ? entry.players : players;
    return { round_wind: "east", dealer: entry.dealer || seating[0], dealer_streak: 0, complete: false };
  }
  let stays;
  if (entry.result === "false_win" || entry.result === "rules") stays = true;
  else if (entry.result === "draw") stays = !!keeps.on_draw;
  else stays = !!keeps.on_win && (entry.winners || []).some((w) => w.player === dealer);
  if (stays) return { round_wind: deal.round_wind, dealer, dealer_streak: (deal.dealer_streak || 0) + (entry.result === "false_win" || entry.result === "rules" ? 0 : 1), complete: false };
  const i = players.indexOf(dealer);
  const nextDealer = players[(i + 1) % 4];
  const ROUNDS = ["east", "south", "west", "north"];
  let round = deal.round_wind;
  if ((i + 1) % 4 === 0) {
    const r = ROUNDS.indexOf(round);
    if (r === 3) return { round_wind: round, dealer, dealer_streak: 0, complete: true };
    round = ROUNDS[r + 1];
  }
  return { round_wind: round, dealer: nextDealer, dealer_streak: 0, complete: false };
}

// --------------------------------------------------------------- storage

function cleanQueue(q) {
  return Array.isArray(q) ? q.filter((h) => h && typeof h === "object" && typeof h.result === "string") : [];
}

/** The shared night kept from before (null: none, or unreadable). */
export function loadShared(storage) {
  let v = null;
  try { v = JSON.parse((storage && storage.getItem(STORE_KEY)) || "null"); } catch (e) { v = null; }
  if (!v || typeof v !== "object" || !TOKEN.test(v.id) || !TOKEN.test(v.key) || !Number.isInteger(v.version) || !Number.isInteger(v.acked)) return null;
  return { id: v.id, key: v.key, table: null, version: v.version, acked: v.acked, queue: cleanQueue(v.queue), conflict: null, offline: false, shown: "view", guesses: Array.isArray(v.guesses) ? v.guesses.filter((g) => g && Number.isInteger(g.hands) && g.next && typeof g.next.dealer === "string") : [] };
}

/** Keeps the shared night (its link, version and waiting hands); null forgets it. */
export function saveShared(storage, shared) {
  try {
    if (!shared) storage.removeItem(STORE_KEY);
    else storage.setItem(STORE_KEY, JSON.stringify({ id: shared.id, key: shared.key, version: shared.version, acked: shared.acked, queue: shared.queue, guesses: shared.guesses || [] }));
  } catch (e) { /* private mode: kept for this page only */ }
}

// --------------------------------------------------------------- the viewer

/** The viewer's page: a table or a group, what the server last said, and the connection. */
export function emptyViewer(link) {
  return { kind: link ? link.kind : "table", id: link ? link.id : "", table: null, group: null, connection: "connecting", gone: false, failed: 0, fresh: null };
}

/**
 * A TABLE with one change applied (the stream's `hand` or `undo` event,
 * docs/tables.md), or null when the change does not follow it (the stream
 * then sends the table itself).
 */
export function applyChange(table, kind, change) {
  if (!table || !change || change.version !== table.version + 1) return null;
  const req = table.request || {};
  const rows = (table.ledger && table.ledger.hands) || [];
  let hands, kept;
  if (kind === "hand") {
    hands = (req.hands || []).concat([change.request]);
    kept = rows.concat([change.hand]);
  } else if (kind === "undo" && Number.isInteger(change.hands)) {
    hands = (req.hands || []).slice(0, change.hands);
    kept = rows.slice(0, change.hands);
  } else {
    return null;
  }
  return { ...table, version: change.version, updated_at: change.updated_at, request: { ...req, hands }, ledger: { ...change.ledger, hands: kept } };
}

/** The viewer's transitions (the page's store, state.js, holds them). */
export const VIEWER_TRANSITIONS = {
  /** A TABLE from the event stream (or a read): kept unless older than the one shown. */
  viewerTable(s, a) {
    const v = s.viewer;
    if (v.table && a.table.version < v.table.version) return { ...s, viewer: { ...v, connection: "live" } };
    return { ...s, viewer: { ...v, table: a.table, connection: "live", gone: false } };
  },
  /** A change from the stream: applied to the table shown when it follows it, else ignored (a table event follows). */
  viewerChange(s, a) {
    const v = s.viewer;
    const table = applyChange(v.table, a.kind, a.change);
    // A hand added live is the one to mark (`fresh`, its index); an undo marks none.
    const fresh = a.kind === "hand" && a.change.hand ? a.change.hand.index : null;
    return table ? { ...s, viewer: { ...v, table, fresh, connection: "live", gone: false } } : s;
  },
  viewerDeleted: (s) => ({ ...s, viewer: { ...s.viewer, gone: true, connection: "closed" } }),
  /** The stream's state: "connecting", "live" or "offline". */
  viewerConnection: (s, a) => (s.viewer.connection === a.connection || s.viewer.gone ? s : { ...s, viewer: { ...s.viewer, connection: a.connection } }),
  groupLoaded: (s, a) => ({ ...s, viewer: { ...s.viewer, group: a.group, connection: "loaded" } }),
  /** The group (or table) could not be read: `a.status` 404 means there is none. */
  viewerFailed: (s, a) => ({ ...s, viewer: { ...s.viewer, gone: a.status === 404, connection: a.status === 404 ? "closed" : "offline", failed: s.viewer.failed + 1 } })
};
