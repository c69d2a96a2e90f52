// The shared night's requests: making the table, joining it with the
// scorer's link, and sending the scorer's hands one at a time, in order,
// each with `If-Match` on the version the last one left. A hand the server
// cannot be reached for waits (state.js `sharedQueued`, kept in local
// storage) and goes when the connection is back; a 412 is shown as a
// conflict for the player to settle. Reads the store, dispatches what came
// back; draws nothing.

import { mapProblem } from "./format.js";
import { ledgerMessages, ledgerRequest } from "./ledger.js";
import { handsOf } from "./share.js";
import { requestKey } from "./requests.js";
import { nightWith } from "./state.js";

// How often a scorer with waiting hands tries again while offline.
const RETRY_MS = 2000;

/** One call with the table's headers; answers `{status, ok, json}`, throws when the server cannot be reached. */
async function send(method, path, body, headers) {
  const init = { method, headers: { accept: "application/json, application/problem+json", ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await window.fetch(path, init);
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  return { status: res.status, ok: res.ok, json };
}

const keyed = (sh) => ({ authorization: "Bearer " + sh.key, "if-match": "\"v" + sh.version + "\"" });
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

  // The request key of the night the server holds (the stale note compares it).
  const keyOf = (table) => requestKey({ ...get(), night: { ...get().night, hands: handsOf(table) } }, "table");

  function retryLater() {
    clearTimeout(timer);
    timer = setTimeout(flush, RETRY_MS);
  }

  /** "Share this night": the local night made a table (POST /v1/tables). */
  async function share() {
    const s = get();
    if (s.shared) return;
    const body = ledgerRequest(s.night, s.input);
    let r;
    try { r = await send("POST", "/v1/tables", body, {}); } catch (e) { dispatch({ type: "unreachable" }); return; }
    if (r.ok && r.json && r.json.id) dispatch({ type: "sharedCreated", answer: r.json });
    else dispatch({ type: "refused", messages: mapProblem(r.status, r.json), focus: false, keepShown: true });
  }

  /** The scorer's link opened here: the table read, its night taken (`#join=...&key=...`). */
  async function join(id, key) {
    let r;
    try { r = await send("GET", "/v1/tables/" + id, undefined, {}); } catch (e) { dispatch({ type: "unreachable" }); return; }
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
      r = await send("POST", "/v1/tables/" + sh.id + "/hands", entry, keyed(sh));
    } catch (e) {
      r = { status: 0 };
    } finally {
      direct = false;
    }
    if (r.ok && r.json) {
      dispatch({ type: "sharedSent", table: r.json, night, key: keyOf(r.json), seq: ++seq });
    } else if (r.status === 412 && r.json && r.json.table) {
      dispatch({ type: "sharedQueued", entry, night });
      dispatch({ type: "sharedConflict", table: r.json.table });
    } else if (transient(r.status)) {
      dispatch({ type: "sharedQueued", entry, night });
      dispatch({ type: "sharedOffline" });
      retryLater();
    } else {
      // Refused: the hand stays on the calculator with its problems, as an unshared night's would.
      dispatch({ type: "refused", messages: ledgerMessages(mapProblem(r.status, r.json), night.hands.length - 1, 0), focus: true, keepShown: true });
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
        try { r = await send("POST", "/v1/tables/" + sh.id + "/hands", sh.queue[0], keyed(sh)); } catch (e) { r = { status: 0 }; }
        if (r.ok && r.json) { dispatch({ type: "sharedSent", table: r.json, key: keyOf(r.json), seq: ++seq }); continue; }
        if (r.status === 412 && r.json && r.json.table) { dispatch({ type: "sharedConflict", table: r.json.table }); return; }
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
    try { r = await send("DELETE", "/v1/tables/" + sh.id + "/hands/last", undefined, keyed(sh)); } catch (e) { dispatch({ type: "sharedOffline" }); return; }
    if (r.ok && r.json) dispatch({ type: "sharedReplaced", table: r.json, key: keyOf(r.json), seq: ++seq });
    else if (r.status === 412 && r.json && r.json.table) dispatch({ type: "sharedConflict", table: r.json.table });
    else dispatch({ type: "refused", messages: mapProblem(r.status, r.json), focus: false, keepShown: true });
  }

  /** The player's choice on a conflict; kept hands are then sent. */
  function resolve(keep) {
    const c = get().shared && get().shared.conflict;
    if (!c) return;
    dispatch({ type: "conflictResolved", keep, key: keyOf(c.table), seq: ++seq });
    flush();
  }

  /** On opening the page: the waiting hands sent, or the server's newer night taken when nothing waits. */
  async function resume() {
    const sh = get().shared;
    if (!sh) return;
    if (sh.queue.length) { flush(); return; }
    let r;
    try { r = await send("GET", "/v1/tables/" + sh.id, undefined, {}); } catch (e) { return; }
    if (r.status === 404) { dispatch({ type: "sharedLeft" }); return; }
    if (r.ok && r.json && r.json.version > sh.version && !get().shared.queue.length) dispatch({ type: "sharedReplaced", table: r.json, key: keyOf(r.json), seq: ++seq });
  }

  window.addEventListener("online", flush);
  return { share, join, add, flush, undo, resolve, resume };
}
