// The table view: the night's hands through POST /v1/ledger (its answer). The Table card
// (players, who won, who discarded, the add and undo buttons) sits with the
// inputs; the answer (the coming deal, the running table, the standings and
// who pays whom) shows in the output.
//
// The winner and discarder choosers name players but are the calculator's
// seat wind and discarder seen through the coming hand's seating: one
// source of truth, the calculator's context.

import { $, el, fill } from "../dom.js";
import { SEATS } from "../tiles.js";
import { rulesetLabel, rulesetName } from "../format.js";
import { currentDeal, seated, formatMoney, formatStake, cleanRules, MULTIPLE_WINNERS, LIABLE_DISCARD, MAX_WINNERS, nightRules, isStarted, handRules, TABLE_RULES, isPlayed, playedCount, seatingOf } from "../ledger.js";
import { tOf, chartOf, nightRuleset, rulesInForce, houseChanges, tableDeal } from "../state.js";

function signed(n) { return n > 0 ? "+" + n : String(n); }

function options(select, items, value) {
  fill(select, items.map(([v, text]) => el("option", { value: v, text })));
  if (items.some(([v]) => v === value)) select.value = value;
}

/** One line about the coming hand: its number, round and dealer (or the end of the match). */
export function dealLine(deal, T) {
  if (!deal) return T("table.deal_unknown");
  if (deal.complete) return T("table.complete");
  const streak = deal.dealer_streak ? T("table.streak", { n: deal.dealer_streak }) : "";
  const game = deal.game > 1 ? T("table.game", { n: deal.game }) : "";
  return game + T("table.deal", { n: deal.hand, round: T("seat." + deal.round_wind), dealer: deal.dealer }) + streak;
}

/**
 * The settling up as the table pays it: with money, the server's
 * `money.transfers` (points and money are not in proportion once the
 * stake changed, so the two are never paired); else `transfers` in points.
 * Each `{from, to, amount, money}` (`money` the amount's words, or "").
 */
export function settleUp(res) {
  const money = res && res.money && Array.isArray(res.money.transfers) ? res.money.transfers : null;
  if (money) return money.map((t) => ({ from: t.from, to: t.to, amount: t.amount, money: formatMoney(t.amount).replace(/^\+/, "") }));
  return ((res && res.transfers) || []).map((t) => ({ from: t.from, to: t.to, amount: t.amount, money: "" }));
}

/** One transfer in words: "Ann pays Ben $12.50" or "Ann pays Ben 64" (points). */
export function transferText(t, T) {
  return T("table.pays", { from: t.from, to: t.to, amount: t.money || t.amount });
}

/** A hand of the night as sent (not answered yet) in words: who won and the faan counted, a draw, a false win... */
export function entryText(e, T) {
  if (e.result === "win") {
    return (e.winners || []).map((w) => {
      const d = w.declared;
      if (!d) return T("table.result_win_tiles", { player: w.player });
      if (d.limit) return T("table.result_win_limit", { player: w.player });
      if (d.patterns) return T("table.result_win_patterns", { player: w.player, n: d.patterns.length });
      return T("table.result_win", { player: w.player, faan: d.faan });
    }).join(T("table.result_sep"));
  }
  return resultText(e, T);
}

// The words of a house rule's name, for a change of rules and the rules in force.
const RULE_NAMES = {
  stake: "table.stake", dealer_keeps_on_win: "table.keeps_on_win", dealer_keeps_on_draw: "table.keeps_on_draw",
  multiple_winners: "table.multiple_winners", co_winners_pay: "table.co_winners_pay", dealer_multiplier: "table.dealer_multiplier",
  liable_discard: "table.liable_discard", min_faan: "house.min_faan", limit: "house.limit", flowers: "house.flowers", points: "house.points"
};

/** One house rule in words ("$0.50 a point", "Minimum faan 5"); null the ruleset's own again. */
export function ruleText(key, value, T) {
  const name = RULE_NAMES[key] ? T(RULE_NAMES[key]) : T("table.rule_other");
  if (value === null || value === undefined) return T("table.rule_back", { rule: name });
  let v;
  if (key === "stake") return T("table.stake_shown", { money: formatStake(value) });
  if (typeof value === "boolean") v = yesNo(value, T);
  else if (key === "multiple_winners" && MW_WORDS[value]) v = T(MW_WORDS[value]);
  else if (key === "liable_discard" && LD_WORDS[value]) v = T(LD_WORDS[value]);
  else if (key === "points" && typeof value === "string") v = T("curve." + value);
  else if (typeof value === "number" || typeof value === "string") v = String(value);
  else return T("table.rule_changed", { rule: name });
  return T("table.rule_value", { rule: name, value: v });
}

/** A set of house rules in words, one phrase each, joined. */
export function rulesText(rules, T) {
  return Object.entries(rules || {}).map(([k, v]) => ruleText(k, v, T)).join(T("table.rules_sep"));
}

/** What a hand of the answer came to, in words. */
export function resultText(h, T) {
  if (h.result === "rules") return T("table.result_rules", { rules: rulesText(h.house_rules, T) });
  if (h.result === "new_game") return newGameText(h, T);
  if (h.result === "draw") return T("table.result_draw");
  if (h.result === "false_win") {
    // Why the row moves: the offender pays each other player (詐糊), in one line.
    const each = Object.entries(h.deltas || {}).filter(([p]) => p !== h.offender).map(([, v]) => v);
    const same = each.length && each.every((v) => v === each[0]) && each[0] > 0;
    return same ? T("table.result_false_win_why", { player: h.offender, each: each[0] }) : T("table.result_false_win", { player: h.offender });
  }
  return (h.winners || []).map((w) => T(w.paid === false ? "table.result_win_unpaid" : "table.result_win", { player: w.player, faan: w.total_faan })).join(T("table.result_sep"));
}

/** A pending winner in words: who, on whose discard, with which tiles. */
export function pendingText(w, T) {
  const tiles = w.hand.tiles + (w.hand.melds || []).map((m) => " [" + m.tiles + "]").join("");
  const from = w.context.discarder ? T(w.context.win_by === "robbing_kong" ? "table.pending_robbed" : "table.pending_from", { player: w.context.discarder }) : "";
  return T("table.pending", { player: w.player, from, tiles });
}

/** A new game in words: its seats, east first, and who deals (a row's `seats`, or a hand's `players`). */
export function newGameText(h, T) {
  let order = Array.isArray(h.players) ? h.players : null;
  if (!order && h.seats) order = ["east", "south", "west", "north"].map((w) => Object.keys(h.seats).find((p) => h.seats[p] === w)).filter(Boolean);
  const seats = order && order.length === 4 ? order.map((p, i) => T("seat." + SEATS[i]) + " " + p).join(T("list.sep")) : "";
  return seats ? T("table.result_new_game_seats", { seats, dealer: h.dealer || order[0] }) : T("table.result_new_game");
}

function yesNo(v, T) { return T(v ? "table.yes" : "table.no"); }

// The words of each choice (literal keys: the i18n test finds them).
const MW_WORDS = { all: "table.mw_all", head_bump: "table.mw_head_bump" };
const LD_WORDS = { as_usual: "table.ld_as_usual", pays_all: "table.ld_pays_all", liable_pays: "table.ld_liable_pays" };

/**
 * The table rules' controls: each select's first option is the ruleset's
 * own value (`GET /v1/rulesets/{id}`'s `table`), the others the choices;
 * the inputs show what the night keeps, the stake also in money.
 */
function renderTableRules(state) {
  const T = tOf(state);
  // Once the night has started, the rules in force (a change is a hand of its own).
  const rules = nightRules(state.night, state.tableAnswer);
  const detail = state.server.details[nightRuleset(state)] || chartOf(state);
  const dflt = detail && detail.table ? detail.table : null;
  const first = (text) => ["", dflt ? T("table.rule_default", { value: text }) : T("house.ruleset_default")];
  const bool = (k) => options($("tr-" + k.replace(/_/g, "-")), [first(dflt ? yesNo(dflt[k], T) : "")].concat([["true", T("table.yes")], ["false", T("table.no")]]), rules[k] == null ? "" : String(rules[k]));
  bool("dealer_keeps_on_win");
  bool("dealer_keeps_on_draw");
  bool("co_winners_pay");
  options($("tr-multiple-winners"), [first(dflt ? T(MW_WORDS[dflt.multiple_winners]) : "")].concat(MULTIPLE_WINNERS.map((m) => [m, T(MW_WORDS[m])])), rules.multiple_winners || "");
  options($("tr-liable-discard"), [first(dflt ? T(LD_WORDS[dflt.liable_discard]) : "")].concat(LIABLE_DISCARD.map((m) => [m, T(LD_WORDS[m])])), rules.liable_discard || "");
  const stake = $("tr-stake");
  if (document.activeElement !== stake) stake.value = rules.stake != null ? formatStake(rules.stake).slice(1) : "";
  stake.placeholder = dflt && dflt.stake ? formatStake(dflt.stake).slice(1) : T("table.stake_none");
  const shown = rules.stake != null ? rules.stake : dflt && dflt.stake;
  $("tr-stake-shown").textContent = shown ? T("table.stake_shown", { money: formatStake(shown) }) : T("table.stake_points");
  $("tr-stake-shown").setAttribute("data-stake", shown ? String(shown) : "");
  const mult = $("tr-dealer-multiplier");
  if (document.activeElement !== mult) mult.value = rules.dealer_multiplier != null ? String(rules.dealer_multiplier) : "";
  mult.placeholder = dflt ? String(dflt.dealer_multiplier) : "1";
  const n = Object.keys(cleanRules(rules)).length;
  $("table-rules-count").textContent = n ? T("house.count", { n }) : T("house.none");
}

/** The Table card from the night and the calculator's context. */
function renderTableInputs(state) {
  const T = tOf(state);
  const night = state.night;
  const locked = night.hands.length > 0;
  night.players.forEach((p, i) => {
    const input = $("player-" + i);
    if (document.activeElement !== input && input.value !== p) input.value = p;
    input.disabled = locked;
  });
  const ready = seated(night);
  const deal = ready ? tableDeal(state) : null;
  $("table-deal").textContent = ready ? dealLine(deal, T) : T("table.need_players");
  $("table-deal").setAttribute("data-complete", String(!!(deal && deal.complete)));
  const seats = deal ? deal.seats : {};
  fill($("table-seats"), deal ? SEATS.map((s) => el("li", { "data-seat": s, "data-player": seats[s] }, [
    el("b", { text: T("seat." + s) }), " " + seats[s]
  ])) : []);

  const players = night.players.map((p) => p.trim());
  const named = players.map((p) => [p, p]);
  const c = state.input.context;
  // The winner first, by name: nobody until chosen (the seat wind's default would name whoever sits South).
  options($("table-winner"), [["", T("table.winner_choose")]].concat(named), state.tableWinner || "");
  const byDiscard = c.win_by !== "self_draw";
  options($("table-discarder"), [["", T("discarder.none")]].concat(named), byDiscard ? seats[c.discarder] || "" : "");
  options($("table-offender"), named, $("table-offender").value);
  const open = !!deal && !deal.complete;
  // At a seated table the winds follow the seating: shown, never typed.
  for (const id of ["seat-wind", "round-wind"]) $(id).disabled = open;
  const fromTable = $("winds-from-table");
  fromTable.hidden = !open;
  fromTable.textContent = open ? T(state.tableWinner ? "table.winds_follow" : "table.winds_choose", { player: state.tableWinner, seat: T("seat." + c.seat_wind), round: T("seat." + deal.round_wind) }) : "";
  for (const id of ["table-winner", "table-discarder", "table-offender", "btn-add-win", "btn-add-draw", "btn-add-false-win", "btn-add-cowinner"]) $(id).disabled = !open;
  const pending = night.pending || [];
  if (pending.length + 1 >= MAX_WINNERS) $("btn-add-cowinner").disabled = true;
  fill($("table-pending"), pending.map((w, k) => el("li", { "data-pointer": "/table/pending/" + k, "data-player": w.player }, [
    el("span", { text: pendingText(w, T) }), " ",
    el("button", { type: "button", className: "link", "data-unstage": String(k), text: T("table.unstage") }),
    el("p", { className: "field-error", "data-error-for": "/table/pending/" + k, hidden: true })
  ])));
  $("table-pending").hidden = !pending.length;
  $("btn-add-win").textContent = T(pending.length ? "table.add_win_with" : "table.add_win", { n: pending.length + 1 });
  $("btn-undo").disabled = !locked;
  $("btn-redo").disabled = !state.undone.length;
  $("btn-redo").textContent = state.undone.length ? T("table.redo_n", { n: state.undone.length }) : T("table.redo");
  $("house-to-night-box").hidden = !Object.keys(houseChanges(state)).length;
  $("btn-new-night").disabled = !locked && !players.some(Boolean);
  $("table-count").textContent = T("table.count", { n: playedCount(night.hands) });
  renderNextGame(state, deal, T);
}

// When the north round is over: the next game, with the seats as they are
// unless the players move (east first), and who deals first.
function renderNextGame(state, deal, T) {
  const box = $("next-game");
  const over = !!deal && deal.complete;
  box.hidden = !over;
  $("btn-next-game").disabled = !over;
  if (!over) return;
  const order = seatingOf(state.night);
  const east = ["east", "south", "west", "north"].map((w) => deal.seats[w]);
  const players = state.night.players.map((p) => p.trim());
  $("next-game-text").textContent = T("table.next_game_text", { n: deal.game + 1 });
  for (let i = 0; i < 4; i++) {
    const sel = $("ng-seat-" + i);
    const keep = players.includes(sel.value) ? sel.value : east[i] || order[i];
    options(sel, players.map((p) => [p, p]), keep);
  }
  const dealerSel = $("ng-dealer");
  options(dealerSel, [["", T("table.first_dealer_east")]].concat(players.map((p) => [p, p])), dealerSel.value);
}

export const tableInputsView = {
  deps: (s) => [s.lang, s.night, s.tableAnswer, s.tableWinner, s.input.context, s.undone, s.input.house, s.shared],
  render: renderTableInputs
};

export const tableRulesView = {
  deps: (s) => [s.lang, s.night.rules, s.night.hands, s.tableAnswer, s.ruleAsk, chartOf(s), s.server.details[nightRuleset(s)]],
  render: renderTableRules
};

export const tableView = {
  deps: (s) => [s.lang, s.shown, s.shared && s.shared.queue],
  render(state) {
    if (!state.shown || state.shown.view !== "table") return;
    const res = state.shown.res;
    const T = tOf(state);
    const players = state.night.players.map((p) => p.trim());
    const unsent = state.shared ? state.shared.queue : [];
    $("table-now").textContent = dealLine(unsent.length ? tableDeal(state) : currentDeal({ ...state.night, hands: state.night.hands.slice(0, (res.hands || []).length) }, res), T);
    const id = nightRuleset(state);
    const ruleset = rulesetName(state.server.info[id], T, id);
    // "+ house rules" only for house rules that score (the table's customs are listed below it).
    const inForce = rulesInForce(state);
    const hand = handRules(inForce);
    $("table-ruleset").textContent = rulesetLabel(ruleset, Object.keys(hand).length > 0, T);
    const chart = state.server.details[id];
    const head = chart ? [T("rules.summary_short", { min: inForce.min_faan != null ? inForce.min_faan : chart.min_faan, limit: inForce.limit != null ? inForce.limit : chart.limit })] : [];
    const listed = Object.fromEntries(Object.entries(inForce).filter(([k]) => k !== "min_faan" && k !== "limit" && (TABLE_RULES.includes(k) || RULE_NAMES[k])));
    const others = Object.keys(hand).filter((k) => !RULE_NAMES[k]).length;
    const parts = head.concat(Object.keys(listed).length ? [rulesText(listed, T)] : [], others ? [T("table.rules_others", { n: others })] : []);
    $("table-in-force").textContent = T(isStarted(state.night) ? "table.in_force" : "table.in_force_coming", { rules: parts.join(T("table.rules_sep")) });
    const money = res.money || null;
    // Compact: the hand's round and dealer in one column; each player a
    // captioned points column (this hand, then the running total) and, with
    // a stake, a money column of its own (this hand's money, then the
    // running money), so four players fit the output column at 1366 px; on
    // a phone each hand is two lines (style.css), never a scrollbar.
    const withMoney = !!money && (res.hands || []).some((h) => h.money);
    $("table-head").closest("table").classList.toggle("with-money", withMoney);
    fill($("table-head"), [el("tr", {}, [
      el("th", { className: "num", text: "#" }), el("th", { text: T("table.col_deal") }),
      el("th", { text: T("table.col_result") })
    ].concat(players.map((p, k) => el("th", { className: "num player-name col-" + (k + 1), "data-player": p, colspan: withMoney ? "2" : null, text: p })))),
    el("tr", { className: "caption-row" }, [el("th", { colspan: "3" })].concat(...players.map((p, k) => [
      el("th", { className: "num points-col col-" + (k + 1), text: T("table.cell_caption") }),
      withMoney ? el("th", { className: "num money-col col-" + (k + 1), text: T("table.money_caption") }) : null
    ])))]);
    $("table-stake").textContent = money && money.stake ? T("table.stake_shown", { money: formatStake(money.stake) }) : "";
    // The running money in whole cents (the answer gives each hand's).
    const runningCents = Object.fromEntries(players.map((p) => [p, 0]));
    const rows = (res.hands || []).map((h) => el("tr", { "data-hand": String(h.index), "data-result": h.result, "data-number": h.number == null ? "" : String(h.number), "data-game": String(h.game || 1) }, [
      el("td", { className: "num hand-no", text: h.number == null ? "" : String(h.number) }),
      el("td", { className: "deal", text: T("table.deal_cell", { round: T("seat." + h.round_wind), dealer: h.dealer }) }),
      el("td", { className: "result", text: resultText(h, T) })
    ].concat(...players.map((p, k) => {
      const dv = h.deltas ? h.deltas[p] : 0;
      const m = h.money ? h.money[p] : null;
      const points = el("td", { className: "num points-col col-" + (k + 1), "data-player": p, "data-delta": h.deltas ? String(dv) : "", "data-balance": String(h.balances[p]), "data-money": m == null ? "" : formatMoney(m) }, [
        el("span", { className: "delta " + (dv > 0 ? "gain" : dv < 0 ? "loss" : ""), text: h.deltas ? signed(dv) : "" }),
        el("span", { className: "balance", text: String(h.balances[p]) })
      ]);
      if (!withMoney) return [points];
      runningCents[p] += m == null ? 0 : Math.round(m * 100);
      const total = formatMoney(runningCents[p] / 100);
      const hand = m == null ? "" : formatMoney(m);
      return [points, el("td", { className: "num money-col col-" + (k + 1), "data-money-player": p, "data-money": hand, "data-money-total": total }, [
        el("span", { className: "delta " + (m > 0 ? "gain" : m < 0 ? "loss" : ""), text: hand }),
        el("span", { className: "balance", text: total })
      ])];
    }))));
    // Hands kept here that the server has not taken yet: shown, numbered after its own, marked, no points.
    let n = playedCount(state.night.hands.slice(0, (res.hands || []).length));
    const waiting = unsent.map((e, k) => el("tr", { className: "unsent", "data-unsent": String(k), "data-result": e.result, "data-number": isPlayed(e) ? String(++n) : "" }, [
      el("td", { className: "num hand-no", text: isPlayed(e) ? String(n) : "" }),
      el("td", { className: "deal", text: T("table.unsent") }),
      el("td", { className: "result", text: entryText(e, T) }),
      el("td", { className: "unsent-cells", colspan: String(players.length * (withMoney ? 2 : 1)), text: T("table.unsent_points") })
    ]));
    fill($("table-body"), rows.concat(waiting));
    // One number a cell (this hand's); the running totals in a row of their own, below.
    const lastHand = (res.hands || [])[(res.hands || []).length - 1];
    const totals = res.balances || (lastHand ? lastHand.balances : {}) || {};
    fill($("table-foot"), lastHand ? [el("tr", { className: "total-row" }, [
      el("th", { scope: "row", colspan: "3", className: "total-label", text: T("table.total_row") })
    ].concat(...players.map((p, k) => {
      const points = el("td", { className: "num points-col col-" + (k + 1), "data-total-player": p, "data-balance": String(totals[p]) }, [
        el("span", { className: "total-label-inline", text: p + " " }), el("b", { text: String(totals[p]) })
      ]);
      if (!withMoney) return [points];
      const total = formatMoney(runningCents[p] / 100);
      return [points, el("td", { className: "num money-col col-" + (k + 1), "data-total-money-player": p, "data-money-total": total }, [el("b", { text: total })])];
    })))] : []);
    $("table-unsent-note").hidden = !unsent.length;
    $("table-unsent-note").textContent = unsent.length ? T("table.unsent_note", { n: unsent.filter(isPlayed).length || unsent.length }) : "";
    fill($("table-standings"), (res.standings || []).map((s) => {
      const m = money && money.balances ? money.balances[s.player] : null;
      return el("li", { "data-player": s.player, "data-rank": String(s.rank), "data-balance": String(s.balance), "data-money": m == null ? "" : formatMoney(m) }, [
        T("table.rank", { rank: s.rank }) + " ", el("b", { text: s.player }), " ",
        el("span", { className: s.balance > 0 ? "gain" : s.balance < 0 ? "loss" : "", text: signed(s.balance) }),
        m == null ? null : el("span", { className: "money", text: " " + formatMoney(m) })
      ]);
    }));
    const transfers = settleUp(res);
    $("table-settled").hidden = transfers.length > 0;
    fill($("table-transfers"), transfers.map((t) => el("li", { "data-from": t.from, "data-to": t.to, "data-amount": String(t.amount), "data-money": t.money }, [transferText(t, T)])));
  }
};
