// The rules view: GET /v1/rulesets/{id}'s answer: the summary, the guide's notes,
// every pattern with its names, and the pairs of patterns that exclude each
// other where the chart has any (the page's link to "the ruleset's notes").

import { $, el, fill } from "../dom.js";
import { rulesetSummary, describeNested, lineName, rulesetName } from "../format.js";
import { tOf, urlFor } from "../state.js";

export const rulesView = {
  deps: (s) => [s.lang, s.shown],
  render(state) {
    if (!state.shown || state.shown.view !== "rules") return;
    const res = state.shown.res;
    const T = tOf(state);
    $("rules-name").textContent = rulesetName(res, T);
    const info = state.server.info[res.id] || res;
    const lines = rulesetSummary(info, res).map((m) => el("span", { className: "summary-line", text: describeNested(m, T) }));
    if (T.lang === "en" && res.summary) lines.push(el("span", { className: "summary-line prose", text: res.summary }));
    fill($("rules-summary"), lines);
    // In Chinese the notes' translation where the ruleset has one (the English stays the source).
    const zh = T.lang === "zh" && Array.isArray(res.notes_zh) && res.notes_zh.length ? res.notes_zh : null;
    const hintKey = zh ? "rulesview.notes_translated" : "rulesview.notes_lang";
    const hint = T(hintKey);
    $("rules-notes-lang").setAttribute("data-i18n", hintKey);
    $("rules-notes-lang").textContent = hint;
    $("rules-notes-lang").hidden = !hint;
    fill($("rules-notes"), (zh || res.notes || []).map((n) => el("li", { text: n })));
    document.querySelector("#rules th[data-i18n='rulesview.guide_name']").hidden = T.lang === "zh";
    fill($("rules-patterns"), (res.patterns || []).map((p) => el("tr", { "data-pattern": p.id }, [
      el("td", { text: lineName(p, T) }),
      // The guide's own (English) name, beside the English page's; the Chinese page names each pattern in Chinese only.
      T.lang === "zh" ? null : el("td", { className: "hint", text: p.guide_name || "" }),
      el("td", { className: "num", text: p.limit ? T("result.limit_value") + " (" + p.faan + ")" : String(p.faan) })
    ])));
    // `exclusive` pairs, named as the chart names its patterns (an id it does not score: the id).
    const byId = new Map((res.patterns || []).map((p) => [p.id, p]));
    const named = (id) => (byId.has(id) ? lineName(byId.get(id), T) : id.replace(/_/g, " "));
    const pairs = Array.isArray(res.exclusive) ? res.exclusive.filter((p) => Array.isArray(p) && p.length === 2) : [];
    fill($("rules-exclusive"), pairs.map((p) => el("li", { "data-exclusive": p.join(",") , text: named(p[0]) + " ⟷ " + named(p[1]) })));
    $("rules-exclusive-box").hidden = !pairs.length;
    $("rules-back").href = urlFor(state, { view: "score" });
  }
};
