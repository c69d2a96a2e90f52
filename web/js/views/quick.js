// A hand by taps, in the Table card: "Add a win" asks who won (the four
// names), how (self-draw, or on whose discard), and the faan (a pad from the
// minimum to the limit, and the limit) or the patterns ticked, with their
// running total; "False win" asks who, then to confirm. What is tapped is
// the store's (`state.quick`); this only draws it.

import { $, el, fill } from "../dom.js";
import { lineName } from "../format.js";
import { MAX_WINNERS } from "../ledger.js";
import { tOf, tableDeal, quickCandidates, padRange } from "../state.js";
import { offered, tickedKey } from "../ticks.js";

const big = (attrs, text) => el("button", { type: "button", className: "tap", ...attrs, text });

function question(q, T) {
  if (q.kind === "false_win") return q.step === "who" ? T("quick.who_false") : T("quick.confirm_false", { player: q.offender });
  if (q.step === "winner") return T("quick.who_won");
  if (q.step === "how") return T("quick.how", { player: q.winner });
  if (q.step === "ready") return T("quick.adding");
  const how = q.discarder ? T("quick.on_discard", { player: q.discarder }) : T("quick.self_drawn");
  return T(q.step === "patterns" ? "quick.tick" : "quick.faan", { player: q.winner, how });
}

function choices(state, q, T) {
  const players = state.night.players.map((p) => p.trim());
  if (q.kind === "false_win") {
    if (q.step === "who") return players.map((p) => big({ "data-quick-player": p }, p));
    return [big({ "data-quick-confirm": "", className: "tap primary" }, T("quick.confirm_button", { player: q.offender }))];
  }
  if (q.step === "winner") return quickCandidates(state).map((p) => big({ "data-quick-player": p }, p));
  if (q.step === "how") {
    return [big({ "data-quick-how": "" }, T("quick.self_draw"))].concat(players.filter((p) => p !== q.winner).map((p) => big({ "data-quick-how": p }, T("quick.discarded_by", { player: p }))));
  }
  if (q.step === "faan") {
    const range = padRange(state);
    if (!range) return [el("p", { className: "hint", text: T("quick.loading") })];
    const pad = [];
    for (let n = range.min; n <= range.limit; n++) pad.push(big({ "data-quick-faan": String(n), className: "tap pad" }, String(n)));
    return pad.concat([big({ "data-quick-limit": "", className: "tap pad limit" }, T("quick.limit"))]);
  }
  if (q.step === "patterns") {
    // Which patterns fit and which may repeat come with GET /v1/patterns: the ticks wait for it.
    const list = offered(state);
    if (!list) return [el("p", { className: "hint", text: T("quick.loading") })];
    const table = state.server.patterns.patterns;
    const maxOf = (id) => { const p = table.find((x) => x.id === id); return p && p.max_count > 1 ? p.max_count : 1; };
    return list.map((p) => {
      const n = q.ticked.filter((id) => id === p.id).length;
      const value = p.limit ? T("result.limit_value") : String(p.faan);
      return big({ "data-quick-tick": p.id, "data-max": String(maxOf(p.id)), "aria-pressed": n ? "true" : "false", className: "tap tick" }, lineName(p, T) + " · " + value + (n > 1 ? " ×" + n : ""));
    });
  }
  return [];
}

// The ticked patterns' total as the server counts it; while it is asked, nothing stale.
function runningText(q, T) {
  if (!q.ticked.length) return T("quick.running_none");
  const t = q.total;
  if (!t || t.key !== tickedKey(q)) return "";
  return T(t.limit ? "quick.running_limit" : "quick.running", { faan: t.faan });
}

function renderQuick(state, prev) {
  const T = tOf(state);
  const q = state.quick;
  // Each new question comes into view, clear of the buttons at the bottom of a phone.
  const moved = q && (!prev || !prev.quick || prev.quick.step !== q.step || prev.quick.winner !== q.winner);
  const deal = tableDeal(state);
  const open = !!deal && !deal.complete;
  for (const id of ["btn-quick-win", "btn-quick-false-win"]) $(id).disabled = !open;
  $("quick-panel").hidden = !q;
  if (!q) return;
  $("quick-panel").setAttribute("data-step", q.step);
  $("quick-question").textContent = question(q, T);
  fill($("quick-choices"), choices(state, q, T));
  // One more winner on the same discard: a tap on a name before this winner's faan.
  const also = q.kind === "win" && q.step === "faan" && !!q.discarder && q.done.length + 1 < MAX_WINNERS;
  const others = also ? quickCandidates(state).concat(q.also) : [];
  $("quick-also-label").hidden = !others.length;
  $("quick-also-label").textContent = others.length ? T("quick.also") : "";
  fill($("quick-also"), others.map((p) => big({ "data-quick-also": p, "aria-pressed": q.also.includes(p) ? "true" : "false" }, p)));
  $("quick-done").textContent = q.kind === "win" && q.done.length ? T("quick.counted", { list: q.done.map((w) => T(w.limit ? "quick.counted_limit" : w.patterns ? "quick.counted_patterns" : "quick.counted_faan", { player: w.player, faan: w.faan, n: w.patterns ? w.patterns.length : 0 })).join(T("table.result_sep")) }) : "";
  $("btn-quick-patterns").hidden = !(q.kind === "win" && q.step === "faan");
  $("btn-quick-send-patterns").hidden = !(q.kind === "win" && q.step === "patterns");
  $("btn-quick-send-patterns").disabled = !(q.ticked && q.ticked.length);
  $("quick-running").hidden = q.step !== "patterns";
  $("quick-running").textContent = q.step === "patterns" ? runningText(q, T) : "";
  if (moved && $("quick-panel").scrollIntoView) $("quick-panel").scrollIntoView({ block: "nearest" });
}

export const quickView = {
  deps: (s) => [s.lang, s.quick, s.night, s.tableAnswer, s.server.details, s.server.patterns],
  render: renderQuick
};
