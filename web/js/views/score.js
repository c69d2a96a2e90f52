// The score view: POST /v1/score's answer, the total, who pays and why, the
// lines and every reading considered; in the Table view, the next hand's.

import { $, el, fill, tileGroup } from "../dom.js";
import { SEATS } from "../tiles.js";
import { tOf, seatName, urlFor } from "../state.js";
import { lineName, explainPayments, describe, rulesetName } from "../format.js";

function signed(n) { return n > 0 ? "+" + n : String(n); }
function dollars(x) { return (x > 0 ? "+" : x < 0 ? "-" : "") + "$" + Math.abs(x).toFixed(2); }

export function lineRow(l, T) {
  return el("tr", { "data-pattern": l.pattern }, [
    el("td", { text: lineName(l, T) }),
    el("td", { className: "num", text: l.limit ? T("result.limit_value") + " (" + l.faan + ")" : String(l.faan) })
  ]);
}

export function linesText(lines, T) {
  return lines.map((l) => lineName(l, T) + " " + (l.limit ? T("result.limit_value") : l.faan)).join(" · ") || T("result.no_lines");
}

function split(mpsz) {
  const out = [];
  let digits = "";
  for (const c of mpsz) {
    if (c >= "1" && c <= "9") digits += c;
    else { for (const d of digits) out.push(d + c); digits = ""; }
  }
  return out;
}

function reading(d, i, chosen, T) {
  const parts = [];
  const sets = d.set_details && d.set_details.length ? d.set_details : (d.sets || []).map((s) => ({ tiles: s }));
  for (const s of sets) parts.push(tileGroup(split(s.tiles), T, (s.declared ? "declared " : "") + (s.winning ? "winning" : "")));
  for (const p of d.pairs || []) parts.push(tileGroup(split(p), T, "pair"));
  if (d.pair) parts.push(tileGroup(split(d.pair), T, "pair" + (d.winning_in_pair ? " winning" : "")));
  // A thirteen-orphans reading: its twelve single tiles beside the pair.
  if (Array.isArray(d.singles) && d.singles.length) {
    const g = tileGroup(d.singles.flatMap(split), T, "singles");
    g.setAttribute("data-singles", String(d.singles.length));
    g.title = T("reading.singles");
    parts.push(g);
  }
  return el("li", { className: "reading" + (chosen ? " chosen" : ""), "data-chosen": String(chosen), "data-index": String(i), "data-form": d.form }, [
    el("div", { className: "reading-head" }, [
      el("span", { className: "form", text: T("form." + d.form) }),
      el("b", { className: "reading-total", text: d.total_faan + " " + T("result.faan") }),
      chosen ? el("span", { className: "badge ok", text: T("result.counts") }) : null
    ]),
    el("div", { className: "sets" }, parts),
    el("div", { className: "reading-lines", text: linesText(d.lines, T) })
  ]);
}

/** What the score section shows: the next hand in the Table view, else the score on screen. */
function scored(state) {
  if (state.input.view === "table") return state.preview;
  return state.shown && state.shown.view === "score" ? state.shown : null;
}

export const scoreView = {
  deps: (s) => [s.lang, scored(s)],
  render(state) {
    const answer = scored(state);
    if (!answer) return;
    const { res, ctx } = answer;
    const T = tOf(state);
    $("total-faan").textContent = String(res.total_faan);
    $("min-faan").textContent = String(res.min_faan);
    $("limit").textContent = String(res.limit);
    $("base-points").textContent = String(res.base_points);
    $("limit-hand").hidden = !res.limit_hand;
    const mm = $("meets-minimum");
    mm.textContent = res.meets_minimum ? T("result.meets") : T("result.below", { n: res.missing_faan });
    mm.className = "badge " + (res.meets_minimum ? "ok" : "bad");
    $("result").setAttribute("data-meets-minimum", String(res.meets_minimum));
    for (const seat of SEATS) {
      const v = res.payments[seat];
      const b = $("payment-" + seat);
      b.textContent = signed(v);
      b.setAttribute("data-value", String(v));
      const role = seat === res.winner ? "winner" : ctx.liable === seat ? "liable" : ctx.discarder === seat && ctx.win_by !== "self_draw" ? "discarder" : "";
      const box = $("pay-" + seat);
      box.setAttribute("data-role", role);
      box.className = "pay" + (v > 0 ? " gain" : v < 0 ? " loss" : "") + (role ? " " + role : "");
      // At a seated night the player's name comes first: "Cat · South · discarder".
      const who = seatName(state, seat);
      box.querySelector(".seat").textContent = (who ? who + " · " : "") + T("seat." + seat) + (role ? " · " + T("role." + role) : "");
      box.setAttribute("data-player", who);
      const m = res.money && res.money.payments ? res.money.payments[seat] : null;
      $("money-" + seat).textContent = m == null ? "" : dollars(m);
    }
    const explain = explainPayments(res, ctx);
    explain.unshift({ key: "money.base", params: { faan: res.total_faan, base: res.base_points } });
    fill($("money-explain"), explain.map((m) => el("li", { "data-key": m.key, text: describe(m, T, ctx) })));
    const notes = $("result-notes-link");
    const info = state.server.info[res.ruleset];
    notes.textContent = T("rules.notes_link", { name: rulesetName(info, T, res.ruleset) });
    notes.href = urlFor(state, { view: "rules", ruleset: res.ruleset });

    const lines = [];
    if (!res.lines.length) lines.push(el("tr", {}, [el("td", { colspan: "2", className: "hint", text: T("result.chicken") })]));
    for (const l of res.lines) lines.push(lineRow(l, T));
    lines.push(el("tr", { className: "sum" }, [
      el("td", { text: res.raw_faan !== res.total_faan ? T("result.total_capped", { raw: res.raw_faan, limit: res.limit }) : T("result.total") }),
      el("td", { className: "num", text: String(res.total_faan) })
    ]));
    fill($("lines"), lines);
    fill($("readings"), res.decompositions.map((d, i) => reading(d, i, i === res.chosen, T)));
    $("readings-count").textContent = "(" + res.decompositions.length + ")";
  }
};
