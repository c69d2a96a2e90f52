// The inputs: the hand box and what it holds (tiles, winning tile, melds,
// live count), the palette, the flowers, the win and the rules controls.

import { $, el, fill, tileFace, flowerFace, tileGroup } from "../dom.js";
import { ALL_TILES, FLOWERS, SEATS, SUIT_LETTERS, compareTiles, suitOf } from "../tiles.js";
import { WIN_BY, REPLACEMENT, EXTRAS } from "../state.js";
import { countMessage, describe, meldKindLabel, tileInMessage, rulesetSummary, describeNested, rulesetName, tileName } from "../format.js";
import { limitsAdd } from "../custom.js";

export function renderPalette(app) {
  const T = app.t;
  fill($("palette"), SUIT_LETTERS.map((s) => el("div", { className: "palette-row", "data-suit": s }, [
    el("span", { className: "palette-label", text: T("suit." + s) }),
    el("div", { className: "tile-row" }, ALL_TILES.filter((t) => suitOf(t) === s).map((t) => tileFace(t, T, { tag: "button", attrs: { "data-count": "0" } })))
  ])));
}

function options(select, items) {
  const v = select.value;
  fill(select, items.map(([value, text]) => el("option", { value, text })));
  if (items.some(([value]) => value === v)) select.value = v;
}

/** Fills the selects whose options are translated (seats, win by, ...). */
export function renderOptions(app) {
  const T = app.t;
  const seats = SEATS.map((s) => [s, T("seat." + s)]);
  for (const sel of document.querySelectorAll("select[data-options]")) {
    const kind = sel.getAttribute("data-options");
    if (kind === "seat") options(sel, seats);
    else if (kind === "win_by") options(sel, WIN_BY.map((w) => [w, T("win_by." + w)]));
    else if (kind === "discarder") options(sel, [["", T("discarder.none")]].concat(seats));
    else if (kind === "replacement") options(sel, REPLACEMENT.map((r) => [r, T("replacement." + r)]));
    else if (kind === "liable") options(sel, [["", T("liable.none")]].concat(seats));
  }
}

/** The win and the rules controls from the state. */
export function renderContext(app) {
  const c = app.state.context;
  $("seat-wind").value = c.seat_wind;
  $("round-wind").value = c.round_wind;
  $("win-by").value = c.win_by;
  $("discarder").value = c.win_by === "self_draw" ? "" : c.discarder;
  $("discarder").disabled = c.win_by === "self_draw";
  $("replacement").value = c.replacement;
  $("liable").value = c.liable;
  for (const e of EXTRAS) document.querySelector("[data-extra='" + e + "']").checked = !!c[e];
  const h = app.state.house;
  $("hr-min-faan").value = h.min_faan != null ? String(h.min_faan) : "";
  $("hr-limit").value = h.limit != null ? String(h.limit) : "";
  $("hr-flowers").value = h.flowers != null ? String(h.flowers) : "";
  const table = Array.isArray(h.points);
  $("hr-points").value = table ? "table" : h.points || (app.pointsTable ? "table" : "");
  $("hr-points-table").hidden = $("hr-points").value !== "table";
  if (table && document.activeElement !== $("hr-points-table")) $("hr-points-table").value = h.points.join(", ");
  $("hr-discard-payment").value = h.discard_payment || "";
  renderLimits(app);
  const n = Object.keys(h).length;
  $("house-rules-count").textContent = n ? app.t("house.count", { n }) : app.t("house.none");
  if (n) $("house-rules").open = true;
}

/** Limits that add: the choice, and how a total above the limit pays only where limits add (the house's or the chart's). */
export function renderLimits(app) {
  const h = app.state.house;
  $("hr-limits-add").value = h.limits_add != null ? String(h.limits_add) : "";
  $("hr-limits-pay").value = h.limits_pay || "";
  $("hr-limits-pay-field").hidden = !limitsAdd(app.details[app.state.ruleset], h) && h.limits_pay == null;
}

export function renderRulesetSelect(app) {
  const sel = $("ruleset");
  const list = app.rulesets;
  if (list.length) fill(sel, list.map((r) => el("option", { value: r.id, text: rulesetName(r, app.t) })));
  if (!list.some((r) => r.id === app.state.ruleset) && list.length) {
    // An id the server does not know stays selectable, so its error shows.
    sel.appendChild(el("option", { value: app.state.ruleset, text: app.state.ruleset }));
  }
  sel.value = app.state.ruleset;
  renderRulesetSummary(app);
}

export function renderRulesetSummary(app) {
  const T = app.t;
  const r = app.rulesetInfo[app.state.ruleset];
  const detail = app.details[app.state.ruleset];
  const box = $("ruleset-summary");
  if (!app.rulesets.length) { box.textContent = T(app.rulesetsFailed ? "rules.load_failed" : "rules.loading"); return; }
  const lines = rulesetSummary(r, detail).map((m) => el("span", { className: "summary-line", text: describeNested(m, T) }));
  if (r && T.lang === "en" && r.summary) lines.push(el("span", { className: "summary-line prose", text: r.summary }));
  fill(box, lines);
  const link = $("ruleset-notes-link");
  link.textContent = T("rules.notes_link", { name: rulesetName(r, T, app.state.ruleset) });
  link.href = app.urlFor({ view: "rules" });
  $("hr-min-faan").placeholder = r ? String(r.min_faan) : "";
  $("hr-limit").placeholder = r ? String(r.limit) : "";
}

/** The hand box's companions: tiles, count, winning tile, melds, palette counts, flowers. */
export function renderHand(app) {
  const T = app.t, d = app.d, st = app.state;
  const box = $("hand-text");
  if (document.activeElement !== box && box.value !== st.text) box.value = st.text;

  // The concealed tiles, sorted for reading; the winning one marked.
  let winIndex = -1;
  if (d.winning) winIndex = d.tiles.lastIndexOf(d.winning);
  const order = d.tiles.map((t, i) => ({ t, i })).sort((a, b) => compareTiles(a.t, b.t) || a.i - b.i);
  fill($("hand"), order.map(({ t, i }) => {
    const b = tileFace(t, T, { tag: "button", attrs: { "data-hand-index": String(i), "aria-label": T("hand.remove", { tile: T("tile.in_label", { code: t, name: tileName(t, T) }) }) } });
    if (i === winIndex) { b.classList.add("winning"); b.setAttribute("data-winning", "true"); b.setAttribute("data-badge", T("hand.win_badge")); }
    return b;
  }));
  $("hand").setAttribute("data-empty", d.tiles.length ? "false" : "true");

  const cm = countMessage(d);
  $("hand-count").textContent = cm.more ? T(cm.key, { ...cm.params, more: describe(cm.more, T) }) : describe(cm, T);
  $("hand-count").title = T("hand.needed", { need: d.needWin, waits: d.needWaits, melds: d.melds.length });
  $("hand-count").setAttribute("data-missing", String(d.missing));

  const note = $("winning-note");
  note.setAttribute("data-winning-tile", d.winning);
  note.textContent = d.winning
    ? T(d.winningFrom === "picked" ? "win.note_picked" : "win.note_last", { tile: tileInMessage(d.winning, T) })
    : T("win.note_none");

  const sel = $("winning-tile");
  const last = d.tiles.length ? d.tiles[d.tiles.length - 1] : "";
  const uniq = [...new Set(d.tiles)].sort(compareTiles);
  fill(sel, [el("option", { value: "", text: last ? T("win.auto", { tile: last }) : T("win.none") })]
    .concat(uniq.map((t) => el("option", { value: t, text: t + " · " + tileInMessage(t, T) }))));
  sel.value = d.winningFrom === "picked" ? d.winning : "";

  // Declared melds.
  fill($("melds"), d.melds.map((m, i) => el("li", { className: "meld", "data-pointer": "/hand/melds/" + i, "data-meld-index": String(i) }, [
    tileGroup(m.tiles, T, "declared"),
    el("span", { className: "meld-kind", text: meldKindLabel(m, T) }),
    el("button", { type: "button", className: "link", "data-remove-meld": String(i), "aria-label": T("melds.remove_aria", { tiles: m.tiles.join("") }), text: T("melds.remove") }),
    el("p", { className: "field-error", "data-error-for": "/hand/melds/" + i, hidden: true })
  ])));
  $("melds-empty").hidden = d.melds.length > 0;

  for (const b of $("palette").querySelectorAll("[data-tile]")) {
    const c = d.counts[b.getAttribute("data-tile")] || 0;
    b.setAttribute("data-count", String(c));
    b.classList.toggle("over", c > 4);
    b.classList.toggle("full", c >= 4);
    if (c >= 4) b.setAttribute("aria-disabled", "true"); else b.removeAttribute("aria-disabled");
  }
  fill($("flowers"), FLOWERS.map((id) => flowerFace(id, T, st.flowers.includes(id))));

  const waits = $("btn-waits");
  waits.textContent = T("btn.waits", { n: d.needWaits });
}
