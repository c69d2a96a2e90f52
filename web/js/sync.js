// The shared night's requests: making the table, joining it with the
// scorer's link, following its event stream as a viewer's page does, and
// sending the scorer's hands one at a time, in order, each with `If-Match`
// on the version the last one left. A hand the server cannot be reached
// for waits (state.js `sharedQueued`, kept in local storage) and goes when
// the connection is back; a 412 is shown as a conflict for the player to
// settle. Reads the store, dispatches what came back; draws nothing.

import { call, followTable } from "./api.js";
import { mapProblem } from "./format.js";
import { ledgerMessages, ledgerRequest } from "./ledger.js";
import { handsOf } from "./share.js";
import { nightWith } from "./state.js";

// How often a scorer with waiting hands tries again while offline.
const RETRY_MS = 2000;

// A change's headers: the key, the version it follows, and (where this page
// holds the table to apply it to) the change alone in the answer.
function keyed(sh) {
  const h = { authorization: "Bearer " + sh.key, "if-match": "\"v" + sh.version + "\"" };
  if (sh.table && sh.table.version === sh.version) h.prefer = "return=minimal";
  return h;
}
// A failure worth trying again: the server or a proxy did not answer for the table.
const transient = (status) => status === 0 || status === 408 || status === 429 || status >= 500;

export function createSync(store) {
  const { get, dispatch } = store;
  let busy = false;
  // A hand being sent at once, and the hands added meanwhile.
  let direct = false;
  const later = [];
  let timer = 0;
  let seq = 1e6;
  // The table's event stream, while the night is shared.
  let follower = null;
  let followed = "";


  function retryLater() {
    clearTimeout(timer);
    timer = setTimeout(flush, RETRY_MS);
  }

  // Every scorer's page follows the table live, as the viewer's does.
  function follow() {
    const sh = get().shared;
    if (!sh) { if (follower) follower.close(); follower = null; followed = ""; return; }
    if (follower && followed === sh.id) return;
    if (follower) follower.close();
    followed = sh.id;
    const streamed = (a) => dispatch({ type: "sharedStream", ...a, busy: busy || direct, seq: ++seq });
    follower = followTable(sh.id, {
      table: (table) => streamed({ kind: "table", table }),
      change: (kind, change) => streamed({ kind, change }),
      gone: () => { follower = null; followed = ""; dispatch({ type: "sharedLeft" }); },
      connection: () => {}
    });
  }
  store.subscribe((s, prev) => { if (s.shared !== prev.shared && (!s.shared || !prev.shared || s.shared.id !== prev.shared.id)) follow(); });

  /** "Share this night": the local night made a table (POST /v1/tables). */
  async function share() {
    const s = get();
    if (s.shared) return;
    const body = ledgerRequest(s.night, s.input);
    let r;
    try { r = await call("POST", "/v1/tables", body); } catch (e) { dispatch({ type: "unreachable" }); return; }
    if (r.ok && r.json && r.json.id) dispatch({ type: "sharedCreated", answer: r.json });
    else dispatch({ type: "refused", messages: mapProblem(r.status, r.json), focus: false, keepShown: true });
  }

  /** The scorer's link opened here: the table read, its night taken (`#join=...&key=...`). */
  async function join(id, key) {
    let r;
    try { r = await call("GET", "/v1/tables/" + id); } catch (e) { dispatch({ type: "unreachable" }); return; }
    if (!r.ok || !r.json) { dispatch({ type: "refused", messages: mapProblem(r.status, r.json), focus: false }); return; }
    dispatch({ type: "sharedJoined", id, key, table: r.json, seq: ++seq });
  }

  /**
   * A hand for the shared night (`night`: the night with it): sent at once
   * when nothing waits; else, or when the server cannot be reached, it
   * waits behind the others. A hand added while one is being sent at once
   * follows it (never sent beside it at the same version).
   */
  async function add(entry, night) {
    if (direct) { later.push(entry); return; }
    const sh = get().shared;
    if (sh.queue.length || sh.offline || sh.conflict || busy) {
      dispatch({ type: "sharedQueued", entry, night });
      flush();
      return;
    }
    direct = true;
    let r;
    try {
      r = await call("POST", "/v1/tables/" + sh.id + "/hands", entry, undefined, keyed(sh));
    } catch (e) {
      r = { status: 0 };
    } finally {
      direct = false;
    }
    if (r.ok && r.json) {
      dispatch({ type: "sharedSent", answer: r.json, night, seq: ++seq });
    } else if (r.status === 412 && r.json && r.json.table) {
      dispatch({ type: "sharedQueued", entry, night });
      dispatch({ type: "sharedConflict", table: r.json.table, seq: ++seq });
    } else if (transient(r.status)) {
      dispatch({ type: "sharedQueued", entry, night });
      dispatch({ type: "sharedOffline" });
      retryLater();
    } else {
      // Refused: the hand stays on the calculator with its problems, as an unshared night's would.
      dispatch({ type: "refused", messages: ledgerMessages(mapProblem(r.status, r.json), night.hands.length - 1, 0), focus: true, keepShown: true });
      dispatch({ type: "quickRefused" });
    }
    while (later.length) {
      const next = later.shift();
      const w = nightWith(get(), next);
      if (w.night) await add(next, w.night);
    }
  }

  /** Sends the waiting hands, first first, until none waits, the server is out of reach, or a conflict. */
  async function flush() {
    if (busy || direct) return;
    busy = true;
    try {
      for (;;) {
        const sh = get().shared;
        if (!sh || !sh.queue.length || sh.conflict) return;
        let r;
        try { r = await call("POST", "/v1/tables/" + sh.id + "/hands", sh.queue[0], undefined, keyed(sh)); } catch (e) { r = { status: 0 }; }
        if (r.ok && r.json) { dispatch({ type: "sharedSent", answer: r.json, seq: ++seq }); continue; }
        if (r.status === 412 && r.json && r.json.table) { dispatch({ type: "sharedConflict", table: r.json.table, seq: ++seq }); return; }
        if (transient(r.status)) { dispatch({ type: "sharedOffline" }); retryLater(); return; }
        dispatch({ type: "sharedRefused", messages: ledgerMessages(mapProblem(r.status, r.json), sh.acked, 0) });
      }
    } finally {
      busy = false;
    }
  }

  /** Takes back the last hand: a waiting one here; else the server's (DELETE .../hands/last). */
  async function undo() {
    const sh = get().shared;
    if (sh.queue.length) { dispatch({ type: "sharedUndone" }); return; }
    if (!get().night.hands.length) return;
    let r;
    try { r = await call("DELETE", "/v1/tables/" + sh.id + "/hands/last", undefined, undefined, keyed(sh)); } catch (e) { dispatch({ type: "sharedOffline" }); return; }
    if (r.ok && r.json) dispatch({ type: "sharedReplaced", answer: r.json, seq: ++seq });
    else if (r.status === 412 && r.json && r.json.table) dispatch({ type: "sharedConflict", table: r.json.table, seq: ++seq });
    else dispatch({ type: "refused", messages: mapProblem(r.status, r.json), focus: false, keepShown: true });
  }

  /** The player's choice on a conflict (`keep`: "new", "all" or none); the hands kept are then sent. */
  function resolve(keep) {
    const c = get().shared && get().shared.conflict;
    if (!c) return;
    dispatch({ type: "conflictResolved", keep, seq: ++seq });
    flush();
  }

  /** On opening the page: the waiting hands sent, or the server's newer night taken when nothing waits; then followed. */
  async function resume() {
    const sh = get().shared;
    if (!sh) return;
    follow();
    if (sh.queue.length) { flush(); return; }
    let r;
    try { r = await call("GET", "/v1/tables/" + sh.id); } catch (e) { return; }
    if (r.status === 404) { dispatch({ type: "sharedLeft" }); return; }
    if (r.ok && r.json && !get().shared.queue.length) dispatch({ type: "sharedStream", kind: "table", table: r.json, busy: busy || direct, seq: ++seq });
  }

  window.addEventListener("online", flush);
  return { share, join, add, flush, undo, resolve, resume };
}
