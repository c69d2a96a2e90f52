// The waits view: POST /v1/waits's answer for a hand one tile short (melds counted:
// 13 tiles less three per declared meld).

import { $, el, fill, tileFace } from "../dom.js";
import { rulesetName } from "../format.js";
import { tOf } from "../state.js";
import { linesText } from "./score.js";

function cell(w, T) {
  if (!w) return el("td", { text: "—" });
  return el("td", { className: w.meets_minimum ? "" : "below" }, [
    el("b", { text: w.total_faan + " " + T("result.faan") }),
    el("span", { className: "hint-inline", text: " · " + w.base_points + " " + T("result.points") + (w.meets_minimum ? "" : " · " + T("waits.below")) }),
    el("div", { className: "reading-lines", text: linesText(w.lines || [], T) })
  ]);
}

export const waitsView = {
  deps: (s) => [s.lang, s.shown],
  render(state) {
    if (!state.shown || state.shown.view !== "waits") return;
    const res = state.shown.res;
    const T = tOf(state);
    const waits = res.waits || [];
    fill($("waits-body"), waits.map((w) => el("tr", { "data-wait": w.tile }, [
      el("td", {}, [tileFace(w.tile, T, { mini: true })]),
      el("td", { className: "num", text: String(w.unseen) }),
      cell(w.discard, T),
      cell(w.self_draw, T)
    ])));
    $("waits-empty").hidden = waits.length > 0;
    const info = state.server.info[res.ruleset];
    $("waits-ruleset").textContent = T("waits.count", { ruleset: rulesetName(info, T, res.ruleset), n: waits.length });
  }
};
