// The House rules panel's patterns and switches, what contains what and
// the exclusive pairs, and the ruleset document export (custom.js holds the
// logic). Every pattern and its names come from the server's pattern table
// (`GET /v1/patterns`); without it, those of the charts seen.

import { $, el, fill } from "../dom.js";
import { lineName } from "../format.js";
import { tOf, chartOf, catalogueOf } from "../state.js";
import { conditionsShown, patternChoice, panelOrder, scoredAfter, effectiveContains, defaultContains, PATTERN_VALUES } from "../custom.js";

// The switches' words (rulesets/README.md, "Conditions"); literal keys so
// the i18n test finds them. A key the server adds later shows as itself.
const COND_WORDS = {
  pair_may_be_value_tile: "cond.pair_may_be_value_tile",
  allow_concealed_kong: "cond.allow_concealed_kong",
  only_without_flowers: "cond.only_without_flowers",
  on_flower_replacement: "cond.on_flower_replacement",
  on_discard: "cond.on_discard",
  self_draw_only: "cond.self_draw_only",
  all_pungs: "cond.all_pungs",
  any_replacement: "cond.any_replacement",
  discard_only_in_pair: "cond.discard_only_in_pair",
  absorbs_seat_flower: "cond.absorbs_seat_flower",
  on_seven_pairs: "cond.on_seven_pairs",
  on_thirteen_orphans: "cond.on_thirteen_orphans",
  four_as_two_pairs: "cond.four_as_two_pairs",
  no_concealed_kong: "cond.no_concealed_kong",
  pure_only: "cond.pure_only",
  with_kong: "cond.with_kong",
  thirteen_sided_only: "cond.thirteen_sided_only",
  self_draw_allowed: "cond.self_draw_allowed",
  pair_wait_only: "cond.pair_wait_only",
  more_than_one_suit: "cond.more_than_one_suit",
  either_order: "cond.either_order",
  scores_the_draw: "cond.scores_the_draw"
};

export function patternName(p, T) {
  if (!p || !p.name) return String((p && p.id) || "").replace(/_/g, " ");
  return lineName(p, T);
}

function valueText(p, T) {
  if (!p) return T("house.not_scored");
  return p.limit ? T("result.limit_value") + " (" + p.faan + ")" : String(p.faan);
}

function renderHousePanel(state) {
  if (!state.panel.open) return;
  const T = tOf(state);
  const chart = chartOf(state);
  const house = state.input.house || {};
  const cat = catalogueOf(state);
  const inChart = new Map(((chart && chart.patterns) || []).map((p) => [p.id, p]));
  // Optional patterns first, then the ruleset's, then those of other rulesets.
  const heads = { 0: "house.group_optional", 1: "house.group_ruleset", 2: "house.group_other" };
  const rows = [];
  let group = -1;
  for (const { id, group: r } of panelOrder(cat, chart)) {
    if (r !== group) { group = r; rows.push(el("tr", { className: "group" }, [el("th", { colspan: "3", text: T(heads[r]) })])); }
    const p = cat.get(id);
    const mine = inChart.get(id);
    const choice = patternChoice(house, id);
    const sel = el("select", { "data-pattern-value": id, "aria-label": patternName(p, T) },
      [el("option", { value: "", text: T("house.pattern_default", { value: valueText(mine, T) }) })]
        .concat(PATTERN_VALUES.map((v) => el("option", { value: v, text: v === "off" ? T("house.not_scored") : v === "limit" ? T("result.limit_value") : v }))));
    sel.value = choice;
    rows.push(el("tr", { "data-pointer": "/house_rules/patterns/" + id, "data-pattern": id, "data-unnamed": p.name ? null : "true", className: choice ? "changed" : "" }, [
      el("td", { text: patternName(p, T) }),
      el("td", { className: "num", text: valueText(mine, T) }),
      el("td", {}, [sel, el("p", { className: "field-error", "data-error-for": "/house_rules/patterns/" + id, hidden: true })])
    ]));
  }
  fill($("hr-patterns"), rows);
  const changed = Object.keys(house.patterns || {}).length;
  $("hr-patterns-count").textContent = changed ? T("house.count", { n: changed }) : "";

  const conds = chart ? conditionsShown(chart, house, cat) : [];
  fill($("hr-conditions"), conds.map((c) => {
    const set = (house.conditions || {})[c.key];
    const sel = el("select", { "data-condition": c.key }, [
      el("option", { value: "", text: T("house.pattern_default", { value: c.value == null ? "?" : T(c.value ? "house.on" : "house.off") }) }),
      el("option", { value: "true", text: T("house.on") }),
      el("option", { value: "false", text: T("house.off") })
    ]);
    sel.value = set == null ? "" : String(set);
    const owners = c.patterns.map((id) => patternName(cat.get(id), T)).join(T("list.sep"));
    const words = COND_WORDS[c.key] ? T(COND_WORDS[c.key]) : c.key;
    return el("div", { className: "field", "data-pointer": "/house_rules/conditions/" + c.key, "data-condition-key": c.key }, [
      el("label", {}, [el("span", { text: words + " (" + owners + ")" }), " ", sel]),
      el("p", { className: "field-error", "data-error-for": "/house_rules/conditions/" + c.key, hidden: true })
    ]);
  }));
  $("hr-conditions-empty").hidden = conds.length > 0;
  renderContains(state, chart, house, cat);
}

export const housePanelView = {
  deps: (s) => [s.lang, s.panel, s.input.house, s.input.ruleset, s.server],
  render: renderHousePanel
};

const nameOf = (cat, id, T) => patternName(cat.get(id) || { id }, T);
const namesOf = (cat, ids, T) => (ids.length ? ids.map((id) => nameOf(cat, id, T)).join(T("list.sep")) : T("house.contains_nothing"));

function options(sel, ids, cat, T, keep) {
  fill(sel, ids.map((id) => el("option", { value: id, text: nameOf(cat, id, T) })));
  if (ids.includes(keep)) sel.value = keep;
}

/**
 * What contains what (one pattern's list at a time, every change listed
 * with its own error slot) and the exclusive pairs (the ruleset's, then
 * the house's): among the patterns scored after the house rules.
 */
function renderContains(state, chart, house, cat) {
  const T = tOf(state);
  const scored = chart ? scoredAfter(chart, house) : new Set();
  const ids = [...cat.keys()].filter((id) => scored.has(id));
  $("hr-contains-empty").hidden = ids.length > 0;
  // The pattern chosen, while it is scored; else the first.
  const cur = ids.includes(state.panel.editing) ? state.panel.editing : ids[0] || "";
  options($("hr-contains-pattern"), ids, cat, T, cur);
  $("hr-contains-edit").hidden = !cur;
  $("hr-contains-edit").setAttribute("data-pointer", "/house_rules/contains/" + cur);
  $("hr-contains-legend").textContent = cur ? T("house.contains_of", { name: nameOf(cat, cur, T) }) : "";
  const eff = cur ? effectiveContains(chart, house, cat, cur) : [];
  const candidates = ids.filter((id) => id !== cur).concat(eff.filter((id) => !scored.has(id)));
  fill($("hr-contains-list"), candidates.map((id) => {
    const box = el("input", { type: "checkbox", "data-contains-of": cur, "data-contains": id });
    box.checked = eff.includes(id);
    return el("label", {}, [box, " ", el("span", { text: nameOf(cat, id, T) })]);
  }));
  fill($("hr-contains-changed"), Object.entries(house.contains || {}).map(([id, list]) => el("li", { "data-pointer": "/house_rules/contains/" + id, "data-contains-changed": id }, [
    el("span", { text: T("house.contains_changed", { name: nameOf(cat, id, T), list: namesOf(cat, list, T), was: namesOf(cat, defaultContains(chart, cat, id), T) }) }),
    " ",
    el("button", { type: "button", "data-contains-reset": id, text: T("house.contains_reset") }),
    el("p", { className: "field-error", "data-error-for": "/house_rules/contains/" + id, hidden: true })
  ])));

  const pair = (p) => nameOf(cat, p[0], T) + " ⟷ " + nameOf(cat, p[1], T);
  const own = ((chart && chart.exclusive) || []).map((p) => el("li", { "data-exclusive-ruleset": p.join(",") }, [el("span", { text: pair(p) + " " + T("house.exclusive_ruleset") })]));
  const mine = (house.exclusive || []).map((p, i) => el("li", { "data-pointer": "/house_rules/exclusive/" + i, "data-exclusive": p.join(",") }, [
    el("span", { text: pair(p) }),
    " ",
    el("button", { type: "button", "data-exclusive-remove": String(i), text: T("house.exclusive_remove") }),
    el("p", { className: "field-error", "data-error-for": "/house_rules/exclusive/" + i, hidden: true })
  ]));
  const all = own.concat(mine);
  fill($("hr-exclusive"), all.length ? all : [el("li", { className: "hint", text: T("house.exclusive_none") })]);
  // Two different patterns to start with; a choice made stays.
  const a = $("hr-exclusive-a"), b = $("hr-exclusive-b");
  options(a, ids, cat, T, a.value);
  options(b, ids, cat, T, ids.includes(b.value) ? b.value : ids[1]);
  $("btn-add-exclusive").disabled = ids.length < 2;
}
