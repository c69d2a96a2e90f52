// The table view: the night's hands through POST /v1/ledger. The Table card
// (players, who won, who discarded, the add and undo buttons) sits with the
// inputs; the answer (the coming deal, the running table, the standings and
// who pays whom) shows in the output.
//
// The winner and discarder choosers name players but are the calculator's
// seat wind and discarder seen through the coming hand's seating: one
// source of truth, the calculator's context.

import { $, el, fill } from "../dom.js";
import { SEATS } from "../tiles.js";
import { currentDeal, ledgerRequest, seated } from "../ledger.js";

function signed(n) { return n > 0 ? "+" + n : String(n); }

function options(select, items, value) {
  fill(select, items.map(([v, text]) => el("option", { value: v, text })));
  if (items.some(([v]) => v === value)) select.value = value;
}

function seatOf(seats, player) {
  return SEATS.find((s) => seats[s] === player) || "";
}

/** One line about the coming hand: its number, round and dealer (or the end of the match). */
export function dealLine(deal, T) {
  if (!deal) return T("table.deal_unknown");
  if (deal.complete) return T("table.complete");
  const streak = deal.dealer_streak ? T("table.streak", { n: deal.dealer_streak }) : "";
  return T("table.deal", { n: deal.hand, round: T("seat." + deal.round_wind), dealer: deal.dealer }) + streak;
}

/** What a hand of the answer came to, in words. */
export function resultText(h, T) {
  if (h.result === "draw") return T("table.result_draw");
  if (h.result === "false_win") return T("table.result_false_win", { player: h.offender });
  return (h.winners || []).map((w) => T(w.paid === false ? "table.result_win_unpaid" : "table.result_win", { player: w.player, faan: w.total_faan })).join("; ");
}

/** The Table card from the night and the calculator's context. */
export function renderTableInputs(app) {
  const T = app.t;
  const night = app.night;
  const locked = night.hands.length > 0;
  night.players.forEach((p, i) => {
    const input = $("player-" + i);
    if (document.activeElement !== input && input.value !== p) input.value = p;
    input.disabled = locked;
  });
  const ready = seated(night);
  const deal = ready ? currentDeal(night, app.tableAnswer) : null;
  $("table-deal").textContent = ready ? dealLine(deal, T) : T("table.need_players");
  $("table-deal").setAttribute("data-complete", String(!!(deal && deal.complete)));
  const seats = deal ? deal.seats : {};
  fill($("table-seats"), deal ? SEATS.map((s) => el("li", { "data-seat": s, "data-player": seats[s] }, [
    el("b", { text: T("seat." + s) }), " " + seats[s]
  ])) : []);

  const players = night.players.map((p) => p.trim());
  const named = players.map((p) => [p, p]);
  const c = app.state.context;
  options($("table-winner"), named, seats[c.seat_wind] || "");
  const byDiscard = c.win_by !== "self_draw";
  options($("table-discarder"), [["", T("discarder.none")]].concat(named), byDiscard ? seats[c.discarder] || "" : "");
  options($("table-offender"), named, $("table-offender").value);
  const open = !!deal && !deal.complete;
  for (const id of ["table-winner", "table-discarder", "table-offender", "btn-add-win", "btn-add-draw", "btn-add-false-win"]) $(id).disabled = !open;
  $("btn-undo").disabled = !locked;
  $("btn-new-night").disabled = !locked && !players.some(Boolean);
  $("table-count").textContent = T("table.count", { n: night.hands.length });
}

/** The calculator's context after choosing a winner or a discarder by name. */
export function contextFor(context, deal, winner, discarder) {
  const c = { ...context, round_wind: deal.round_wind };
  if (winner) c.seat_wind = seatOf(deal.seats, winner);
  if (!discarder) { c.win_by = "self_draw"; c.discarder = ""; } else {
    if (c.win_by === "self_draw") c.win_by = "discard";
    c.discarder = seatOf(deal.seats, discarder);
    c.replacement = "none";
  }
  return c;
}

export const tableView = {
  id: "table",
  section: "table",
  path: "/v1/ledger",
  loadingKey: "status.tallying",
  ready: (app) => seated(app.night) && app.night.hands.length > 0,
  /** The request: the night (or the night with a hand being added). */
  body: (app, night) => ledgerRequest(night || app.night, app.state),

  render(app, res) {
    const T = app.t;
    const players = app.night.players.map((p) => p.trim());
    app.tableAnswer = res;
    $("table-now").textContent = dealLine(currentDeal(app.night, res), T);
    $("table-ruleset").textContent = app.rulesetInfo[app.state.ruleset] ? app.rulesetInfo[app.state.ruleset].name : app.state.ruleset;
    fill($("table-head"), [el("tr", {}, [
      el("th", { className: "num", text: "#" }), el("th", { text: T("table.col_round") }), el("th", { text: T("table.col_dealer") }),
      el("th", { text: T("table.col_result") })
    ].concat(players.map((p) => el("th", { className: "num", "data-player": p, text: p }))))]);
    fill($("table-body"), (res.hands || []).map((h) => el("tr", { "data-hand": String(h.index), "data-result": h.result }, [
      el("td", { className: "num", text: String(h.index + 1) }),
      el("td", { text: T("seat." + h.round_wind) }),
      el("td", { text: h.dealer }),
      el("td", { text: resultText(h, T) })
    ].concat(players.map((p) => {
      const dv = h.deltas[p];
      return el("td", { className: "num", "data-player": p, "data-delta": String(dv), "data-balance": String(h.balances[p]) }, [
        el("span", { className: "delta " + (dv > 0 ? "gain" : dv < 0 ? "loss" : ""), text: signed(dv) }),
        el("span", { className: "balance", text: String(h.balances[p]) })
      ]);
    })))));
    fill($("table-standings"), (res.standings || []).map((s) => el("li", { "data-player": s.player, "data-rank": String(s.rank), "data-balance": String(s.balance) }, [
      T("table.rank", { rank: s.rank }) + " ", el("b", { text: s.player }), " ",
      el("span", { className: s.balance > 0 ? "gain" : s.balance < 0 ? "loss" : "", text: signed(s.balance) })
    ])));
    const transfers = res.transfers || [];
    $("table-settled").hidden = transfers.length > 0;
    fill($("table-transfers"), transfers.map((t) => el("li", { "data-from": t.from, "data-to": t.to, "data-amount": String(t.amount) }, [
      T("table.pays", { from: t.from, to: t.to, amount: t.amount })
    ])));
    renderTableInputs(app);
    return { key: "status.tallied", params: { n: (res.hands || []).length } };
  }
};
