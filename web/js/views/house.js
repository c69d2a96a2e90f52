// The House rules panel's patterns and switches, and the ruleset document
// export (custom.js holds the logic). Pattern names are the server's (a
// chart's `name` / `name_zh`); a pattern nothing has named yet shows its id.

import { $, el, fill } from "../dom.js";
import { lineName } from "../format.js";
import { catalogue, conditionsShown, patternChoice, OPTIONAL_PATTERNS, PATTERN_VALUES } from "../custom.js";

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
  thirteen_sided_only: "cond.thirteen_sided_only"
};

/** Every chart the page holds: the current ruleset's first (its names win), then the others, then the naming chart. */
export function pageCatalogue(app) {
  const first = app.details[app.state.ruleset];
  const charts = [first].concat(Object.values(app.details).filter((c) => c !== first), [app.namingChart]).filter(Boolean);
  return catalogue(charts, app.learned);
}

export function patternName(p, T) {
  if (!p.name) return p.id.replace(/_/g, " ");
  return lineName(p, T);
}

function valueText(p, T) {
  if (!p) return T("house.not_scored");
  return p.limit ? T("result.limit_value") + " (" + p.faan + ")" : String(p.faan);
}

export function renderHousePanel(app) {
  const T = app.t;
  const chart = app.details[app.state.ruleset];
  const house = app.state.house || {};
  const cat = pageCatalogue(app);
  const inChart = new Map(((chart && chart.patterns) || []).map((p) => [p.id, p]));
  // Optional patterns first, then the ruleset's, then those of other rulesets.
  const ids = [...cat.keys()];
  const rank = (id) => (OPTIONAL_PATTERNS.includes(id) ? 0 : inChart.has(id) ? 1 : 2);
  ids.sort((a, b) => rank(a) - rank(b) || (rank(a) === 0 ? OPTIONAL_PATTERNS.indexOf(a) - OPTIONAL_PATTERNS.indexOf(b) : 0));
  const heads = { 0: "house.group_optional", 1: "house.group_ruleset", 2: "house.group_other" };
  const rows = [];
  let group = -1;
  for (const id of ids) {
    const r = rank(id);
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
    const owners = c.patterns.map((id) => patternName(cat.get(id), T)).join(", ");
    const words = COND_WORDS[c.key] ? T(COND_WORDS[c.key]) : c.key;
    return el("div", { className: "field", "data-pointer": "/house_rules/conditions/" + c.key, "data-condition-key": c.key }, [
      el("label", {}, [el("span", { text: words + " (" + owners + ")" }), " ", sel]),
      el("p", { className: "field-error", "data-error-for": "/house_rules/conditions/" + c.key, hidden: true })
    ]);
  }));
  $("hr-conditions-empty").hidden = conds.length > 0;
  // A server without inline rulesets cannot compare a document.
  $("cmp-custom").disabled = !!app.validateMissing;
  if (app.validateMissing) $("cmp-custom").checked = false;
  $("cmp-custom").title = app.validateMissing ? T("house.doc_unchecked") : "";
}
