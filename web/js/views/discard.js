// Which tile to discard / 打邊隻: POST /v1/analyze for 13 or 14 tiles. The
// ranked discards, then the best one's acceptance as tiles with their
// unseen counts, its waits with their faan (marked where a win falls short
// of the minimum) and a chart of the chance to win by draws. The request
// and what is shown of the answer come from discard.js (pure, tested).

import { $, el, fill, tileFace } from "../dom.js";
import { rulesetName } from "../format.js";
import { summarize, percent, chartGeometry, assumptionLine, assumptionKeys } from "../discard.js";
import { tOf } from "../state.js";

// The SVG namespace as the HTML parser gives it (the page names no URL).
let svgNs = null;
function ns() {
  if (!svgNs) { const d = document.createElement("div"); d.innerHTML = "<svg></svg>"; svgNs = d.firstChild.namespaceURI; }
  return svgNs;
}

function svg(tag, attrs, children) {
  const e = document.createElementNS(ns(), tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const c of children || []) if (c) e.appendChild(c);
  return e;
}

function waitsCell(waits, T) {
  if (!waits.length) return el("td", { className: "hint", text: "—" });
  return el("td", {}, waits.map((w) => el("span", {
    className: "wait-chip meets-" + w.meets, "data-wait": w.tile,
    title: w.meets === "discard" ? "" : T(w.meets === "self_draw" ? "discard.mark_self_draw" : "discard.mark_below")
  }, [tileFace(w.tile, T, { mini: true }), el("b", { text: String(w.faan) }), w.meets === "discard" ? "" : w.meets === "self_draw" ? "+" : "*"])));
}

function chart(best, T) {
  const win = best.curve;
  const g = chartGeometry(win, 320, 150);
  const last = percent(win[win.length - 1]);
  const grid = g.yTicks.map((t) => svg("g", {}, [
    svg("line", { x1: g.box.left, x2: g.box.right, y1: t.y, y2: t.y, class: "grid" }),
    svg("text", { x: g.box.left - 4, y: t.y + 4, "text-anchor": "end", text: t.label })
  ]));
  const xs = g.xTicks.map((t) => svg("text", { x: t.x, y: g.box.bottom + 14, "text-anchor": "middle", text: String(t.t) }));
  return svg("svg", {
    viewBox: "0 0 320 150", class: "chance-chart", role: "img", "data-points": String(win.length),
    "aria-label": T("discard.chart_aria", { n: win.length, last })
  }, [
    ...grid, ...xs,
    svg("polyline", { points: g.points, class: "win-line" }),
    svg("polyline", { points: g.box.left + "," + g.box.bottom + " " + g.points + " " + g.box.right + "," + g.box.bottom, class: "win-area" })
  ]);
}

export const discardView = {
  deps: (s) => [s.lang, s.shown],
  render(state) {
    if (!state.shown || state.shown.view !== "discard") return;
    const res = state.shown.res;
    const T = tOf(state);
    const v = summarize(res);
    const sh = v.shanten;
    const forms = [T("discard.forms", { standard: sh.standard })];
    if (sh.seven_pairs != null) forms.push(T("discard.form_seven_pairs", { n: sh.seven_pairs }));
    if (sh.thirteen_orphans != null) forms.push(T("discard.form_orphans", { n: sh.thirteen_orphans }));
    const head = sh.best < 0 ? T("discard.complete_shanten") : sh.best === 0 ? T("discard.ready") : T("discard.shanten", { n: sh.best });
    const info = state.server.info[res.ruleset];
    $("discard-ruleset").textContent = "(" + rulesetName(info, T, res.ruleset) + ")";
    $("discard-shanten").textContent = head + " · " + forms.join(T("list.sep"));
    $("discard-shanten").setAttribute("data-shanten", String(sh.best));
    const done = $("discard-complete");
    done.hidden = !v.complete;
    done.textContent = v.complete ? T("discard.complete", { faan: v.complete.total_faan, meets: T(v.complete.meets_minimum ? "discard.meets" : "discard.below_min") }) : "";

    // The ranked table (14 tiles).
    const table = $("discard-table");
    table.hidden = !v.discarding;
    table.setAttribute("data-chances", String(v.chances));
    // What the figures assume, from the request that brought them (not the boxes as they are now).
    const asked = state.shown.chances;
    const assumes = assumptionLine(asked, T);
    const note = $("discard-table-note");
    note.hidden = !(v.discarding && v.chances);
    note.textContent = assumes;
    note.setAttribute("data-assumes", assumptionKeys(asked).slice(1).join(" "));
    fill($("discard-body"), v.discarding ? v.rows.map((r, i) => el("tr", {
      "data-discard": r.tile, "data-shanten": String(r.shanten), "data-acceptance": String(r.count), className: i === 0 ? "best" : ""
    }, [
      el("td", {}, [tileFace(r.tile, T, { mini: true })]),
      el("td", { className: "num", text: String(r.shanten) }),
      el("td", { className: "num", text: String(r.count) }),
      waitsCell(r.waits, T),
      el("td", { className: "num col-chance", "data-win": r.win == null ? "" : String(r.win), text: r.win == null ? "—" : percent(r.win) }),
      el("td", { className: "num col-chance col-expected", text: r.expected == null ? "—" : r.expected.toFixed(1) })
    ])) : []);

    // The best discard (or the 13-tile hand itself).
    const best = v.best;
    const title = $("discard-best-title");
    if (v.discarding) {
      fill(title, [el("span", { text: T("discard.best", { tile: "" }) }), tileFace(best.tile, T, { mini: true })]);
      title.setAttribute("data-best", best.tile);
    } else {
      title.textContent = T("discard.this_hand");
      title.setAttribute("data-best", "");
    }
    $("discard-accept-title").textContent = T("discard.accept_title", { n: best.count });
    $("discard-accept-title").setAttribute("data-count", String(best.count));
    fill($("discard-acceptance"), best.acceptance.map((a) => el("li", { "data-accept": a.tile, "data-unseen": String(a.unseen) }, [
      tileFace(a.tile, T, { mini: true }), el("span", { className: "unseen", text: T("discard.unseen_n", { n: a.unseen }) })
    ])));
    $("discard-accept-none").hidden = best.acceptance.length > 0 || sh.best < 0;
    fill($("discard-waits"), best.waits.map((w) => el("li", { "data-wait": w.tile, "data-faan": String(w.faan), "data-meets": w.meets, className: "meets-" + w.meets }, [
      tileFace(w.tile, T, { mini: true }),
      el("b", { text: T("discard.wait_faan", { faan: w.faan }) }),
      el("span", { className: "unseen", text: T("discard.unseen_n", { n: w.unseen }) }),
      w.meets === "discard" ? null : el("span", { className: "badge " + (w.meets === "self_draw" ? "warn" : "bad"), text: T(w.meets === "self_draw" ? "discard.mark_self_draw" : "discard.mark_below") })
    ])));
    $("discard-not-ready").hidden = best.waits.length > 0;
    // What the marks mean, for those on screen only.
    const used = new Set(v.rows.flatMap((r) => r.waits.map((w) => w.meets)));
    const min = state.input.house && state.input.house.min_faan != null ? state.input.house.min_faan : info ? info.min_faan : "";
    const notes = ["self_draw", "none"].filter((m) => used.has(m)).map((m) => T(m === "none" ? "discard.note_below" : "discard.note_self_draw", { min }));
    $("discard-marks-note").hidden = !notes.length;
    $("discard-marks-note").textContent = notes.join(" ");

    // The chart of the chance to win by draws.
    const box = $("discard-chart");
    if (best.curve && best.curve.length) {
      fill(box, [chart(best, T)]);
      // The figures are the hand's alone: said beside them, so that a high chance never reads as a promise.
      $("discard-chart-note").textContent = T("discard.chart_note", { n: best.curve.length, ready: percent(best.ready), win: percent(best.win), points: best.expected.toFixed(1) }) + " " + assumes;
    } else {
      fill(box, []);
      $("discard-chart-note").textContent = T("discard.no_chances");
    }
    $("discard-chart-box").setAttribute("data-chances", String(!!best.curve));
  }
};
