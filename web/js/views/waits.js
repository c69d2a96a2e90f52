// The waits view: POST /v1/waits for a hand one tile short (melds counted:
// 13 tiles less three per declared meld).

import { $, el, fill, tileFace } from "../dom.js";
import { rulesetName } from "../format.js";
import { readyForWaits } from "../state.js";
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
  id: "waits",
  section: "waits",
  path: "/v1/waits",
  loadingKey: "status.waiting",
  ready: (app) => readyForWaits(app.d),

  render(app, res) {
    const T = app.t;
    const waits = res.waits || [];
    fill($("waits-body"), waits.map((w) => el("tr", { "data-wait": w.tile }, [
      el("td", {}, [tileFace(w.tile, T, { mini: true })]),
      el("td", { className: "num", text: String(w.unseen) }),
      cell(w.discard, T),
      cell(w.self_draw, T)
    ])));
    $("waits-empty").hidden = waits.length > 0;
    const info = app.rulesetInfo[res.ruleset];
    $("waits-ruleset").textContent = T("waits.count", { ruleset: rulesetName(info, T, res.ruleset), n: waits.length });
    return waits.length ? { key: "status.waits", params: { tiles: waits.map((w) => w.tile).join(", ") } } : { key: "status.no_waits" };
  }
};
