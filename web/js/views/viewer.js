// The viewer's pages: a shared night at /t/{id} (the standings, the last
// hand, the night's table and statistics, as the event stream tells them)
// and a group at /g/{id} (its nights and its standings across them). They
// draw `state.viewer` only.

import { $, el, fill } from "../dom.js";
import { formatMoney, currentDeal } from "../ledger.js";
import { tOf } from "../state.js";
import { dealLine, resultText, settleUp, transferText } from "./table.js";

const signed = (n) => (n > 0 ? "+" + n : String(n));
const tone = (n) => (n > 0 ? "gain" : n < 0 ? "loss" : "");

// What the status line says of the connection (literal keys: the i18n test finds them).
const CONNECTION = {
  connecting: "viewer.conn_connecting", live: "viewer.conn_live", loaded: "viewer.conn_loaded",
  offline: "viewer.conn_offline", closed: "viewer.conn_closed", gone: "viewer.conn_gone", gone_group: "viewer.conn_gone_group"
};

function renderConnection(state) {
  const v = state.viewer;
  const T = tOf(state);
  const node = $("v-connection");
  const st = v.gone ? (v.kind === "group" ? "gone_group" : "gone") : v.connection;
  node.setAttribute("data-state", st);
  node.textContent = T(CONNECTION[st]);
}

function statsRows(stats, T, money) {
  return stats.map((p) => el("tr", { "data-player": p.player }, [
    el("th", { scope: "row", text: p.player }),
    p.nights != null ? el("td", { className: "num", text: String(p.nights) }) : null,
    el("td", { className: "num", text: String(p.hands_won != null ? p.hands_won : "–") }),
    el("td", { className: "num", text: String(p.self_draws != null ? p.self_draws : "–") }),
    el("td", { className: "num", text: String(p.dealt_in != null ? p.dealt_in : "–") }),
    el("td", { className: "num", text: p.biggest ? T("viewer.faan", { n: p.biggest.faan }) : "–" }),
    el("td", { className: "num " + tone(p.points), "data-points": String(p.points), text: signed(p.points) }),
    money ? el("td", { className: "num", text: p.money != null ? formatMoney(p.money) : "" }) : null
  ]));
}

function statsHead(T, nights, money) {
  return el("tr", {}, [
    el("th", { scope: "col", text: T("viewer.col_player") }),
    nights ? el("th", { scope: "col", className: "num", text: T("viewer.col_nights") }) : null,
    el("th", { scope: "col", className: "num", text: T("viewer.col_won") }),
    el("th", { scope: "col", className: "num", text: T("viewer.col_self_draws") }),
    el("th", { scope: "col", className: "num", text: T("viewer.col_dealt_in") }),
    el("th", { scope: "col", className: "num", text: T("viewer.col_biggest") }),
    el("th", { scope: "col", className: "num", text: T("viewer.col_points") }),
    money ? el("th", { scope: "col", className: "num", text: T("viewer.col_money") }) : null
  ]);
}

function renderTable(state) {
  const v = state.viewer;
  $("v-table").hidden = v.kind !== "table" || !v.table;
  if (v.kind !== "table" || !v.table) return;
  const T = tOf(state);
  const t = v.table;
  const res = t.ledger || {};
  const players = (t.request && t.request.players) || [];
  document.body.setAttribute("data-version", String(t.version));
  $("v-title").textContent = t.title || T("viewer.untitled");
  const night = { players, hands: (t.request && t.request.hands) || [] };
  $("v-deal").textContent = players.length === 4 ? dealLine(currentDeal(night, res), T) : "";
  const hands = res.hands || [];
  const last = hands[hands.length - 1];
  $("v-last").textContent = !last ? T("viewer.no_hands") : last.number != null ? T("viewer.last", { n: last.number, what: resultText(last, T) }) : resultText(last, T);
  $("v-last").setAttribute("data-hands", String(hands.length));
  const money = res.money && res.money.balances ? res.money.balances : null;
  fill($("v-standings"), (res.standings || []).map((s) => el("li", { "data-player": s.player, "data-rank": String(s.rank), "data-balance": String(s.balance) }, [
    T("table.rank", { rank: s.rank }) + " ", el("b", { text: s.player }), " ",
    el("span", { className: tone(s.balance), text: signed(s.balance) }),
    money && money[s.player] != null ? el("span", { className: "money", text: " " + formatMoney(money[s.player]) }) : null
  ])));
  fill($("v-head"), [el("tr", {}, [
    el("th", { scope: "col", className: "num", text: "#" }),
    el("th", { scope: "col", text: T("table.col_result") })
  ].concat(players.map((p) => el("th", { scope: "col", className: "num player-name", text: p }))))]);
  const transfers = settleUp(res);
  $("v-settled").hidden = transfers.length > 0 || !hands.length;
  fill($("v-transfers"), transfers.map((x) => el("li", { "data-from": x.from, "data-to": x.to, "data-amount": String(x.amount), "data-money": x.money }, [transferText(x, T)])));
  // The hand that just came in, marked until the next one.
  fill($("v-body"), hands.map((h) => el("tr", { "data-hand": String(h.index), "data-result": h.result, "data-number": h.number == null ? "" : String(h.number), className: v.fresh === h.index ? "new-hand" : "" }, [
    el("td", { className: "num", text: h.number == null ? "" : String(h.number) }),
    el("td", { className: "result", text: resultText(h, T) })
  ].concat(players.map((p) => {
    const d = h.deltas ? h.deltas[p] : null;
    return el("td", { className: "num", "data-player": p, "data-delta": String(d) }, [
      el("span", { className: "delta " + tone(d), text: d == null ? "" : signed(d) }),
      el("span", { className: "balance", text: h.balances ? String(h.balances[p]) : "" })
    ]);
  })))));
  const stats = res.stats || [];
  $("v-stats-section").hidden = !stats.length;
  const withMoney = stats.some((p) => p.money != null);
  fill($("v-stats-head"), [statsHead(T, false, withMoney)]);
  fill($("v-stats-body"), statsRows(stats, T, withMoney));
}

function renderGroup(state) {
  const v = state.viewer;
  $("v-group").hidden = v.kind !== "group" || !v.group;
  if (v.kind !== "group" || !v.group) return;
  const T = tOf(state);
  const g = v.group;
  $("v-group-name").textContent = g.name;
  const stats = (g.stats || []).slice().sort((a, b) => b.points - a.points);
  const withMoney = stats.some((p) => p.money != null);
  fill($("v-gstats-head"), [statsHead(T, true, withMoney)]);
  fill($("v-gstats-body"), statsRows(stats, T, withMoney));
  fill($("v-nights"), (g.nights || []).map((n) => el("li", { "data-table": n.id }, [
    el("a", { href: "/t/" + n.id, text: n.title || T("viewer.untitled") }), " ",
    el("span", { className: "hint-inline", text: T("viewer.night_line", { date: String(n.created_at || "").slice(0, 10), n: n.hands, players: (n.players || []).map((p) => p + " " + signed((n.balances || {})[p] || 0)).join(", ") }) })
  ])));
  $("v-no-nights").hidden = (g.nights || []).length > 0;
}

export const viewerViews = [
  { deps: (s) => [s.lang, s.viewer.connection, s.viewer.gone], render: renderConnection },
  { deps: (s) => [s.lang, s.viewer.table], render: renderTable },
  { deps: (s) => [s.lang, s.viewer.group], render: renderGroup }
];
