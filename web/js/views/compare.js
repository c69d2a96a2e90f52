// The compare view: POST /v1/compare's answer under every ruleset; a one-line-per-
// ruleset summary table first, then each ruleset's lines and payments.

import { $, el, fill } from "../dom.js";
import { SEATS } from "../tiles.js";
import { tOf, urlFor } from "../state.js";
import { mapProblem, describe, rulesetLabel, rulesetName } from "../format.js";
import { lineRow } from "./score.js";

function signed(n) { return n > 0 ? "+" + n : String(n); }

function isProblem(r) {
  return !!(r && r.status && r.type);
}

export const compareView = {
  deps: (s) => [s.lang, s.shown],
  render(state) {
    if (!state.shown || state.shown.view !== "compare") return;
    const { res, ctx } = state.shown;
    const T = tOf(state);
    const results = res.results || {};
    const ids = Object.keys(results);
    const order = state.server.rulesets.map((r) => r.id).filter((id) => ids.includes(id));
    for (const id of ids) if (!order.includes(id)) order.push(id);
    const selected = state.input.ruleset;
    if (order.indexOf(selected) > 0) { order.splice(order.indexOf(selected), 1); order.unshift(selected); }
    // The page's own ruleset (a document sent beside the built-in ones): its name, and a link to its base.
    const sent = state.shown.document;
    const custom = sent && ids.includes(sent.id) ? sent : null;
    // Without the page's own document, the house rules were sent with every built-in ruleset: each row says so.
    const withHouse = !custom && Object.keys(state.input.house || {}).length > 0;
    const name = (id) => (custom && id === custom.id ? rulesetName(custom, T) : rulesetLabel(rulesetName(state.server.info[id], T, id), withHouse, T));
    const href = (id) => urlFor(state, { ruleset: custom && id === custom.id ? custom.extends : id, view: "score" });
    if (custom) { order.splice(order.indexOf(custom.id), 1); order.splice(order[0] === selected ? 1 : 0, 0, custom.id); }

    fill($("compare-summary"), order.map((id) => {
      const r = results[id];
      const select = el("a", { href: href(id), "data-select-ruleset": custom && id === custom.id ? custom.extends : id, text: name(id) });
      if (isProblem(r)) {
        const why = mapProblem(r.status, r).map((m) => describe(m, T, ctx)).join(" ");
        return el("tr", { "data-ruleset": id, "data-custom": custom && id === custom.id ? "true" : null, className: "problem" + (id === selected ? " selected" : "") }, [
          el("td", {}, [select]), el("td", { colspan: "3", className: "hint", title: why, text: T("compare.not_scored") + ": " + why })
        ]);
      }
      return el("tr", { "data-ruleset": id, "data-custom": custom && id === custom.id ? "true" : null, "data-ruleset-hash": r.ruleset_hash || null, "data-total-faan": String(r.total_faan), className: id === selected ? "selected" : "" }, [
        el("td", {}, [select]),
        el("td", { className: "num", text: String(r.total_faan) }),
        el("td", { className: "num", text: String(r.min_faan) }),
        el("td", { className: "num" + (r.meets_minimum ? "" : " below"), text: r.meets_minimum ? signed(r.payments[r.winner || ctx.seat_wind]) : T("compare.below") })
      ]);
    }));

    fill($("compare-grid"), order.map((id) => {
      const r = results[id];
      const card = el("article", { className: "cmp" + (id === selected ? " selected" : ""), id: "compare-" + id, "data-ruleset": id }, [
        el("h4", { title: id, text: name(id) })
      ]);
      if (isProblem(r)) {
        card.classList.add("problem");
        for (const m of mapProblem(r.status, r)) card.appendChild(el("p", { className: "cmp-problem", text: describe(m, T, ctx) }));
        return card;
      }
      card.setAttribute("data-total-faan", String(r.total_faan));
      card.appendChild(el("div", { className: "cmp-total" }, [
        el("b", { className: "cmp-faan", text: String(r.total_faan) }), " " + T("result.faan") + " ",
        el("span", { className: "badge " + (r.meets_minimum ? "ok" : "bad"), text: r.meets_minimum ? T("result.meets") : T("result.below", { n: r.missing_faan }) })
      ]));
      card.appendChild(el("table", { className: "lines" }, [el("tbody", {}, r.lines.map((l) => lineRow(l, T)))]));
      card.appendChild(el("div", { className: "cmp-pay" }, SEATS.map((s) => {
        const v = r.payments[s];
        return el("span", { className: v > 0 ? "gain" : v < 0 ? "loss" : "", "data-seat": s, text: T("seat." + s) + " " + signed(v) });
      })));
      return card;
    }));
  }
};
