// The inputs: the hand box and what it holds (tiles, winning tile, melds,
// live count), the palette, the flowers, the win and the rules controls.

import { $, el, fill, tileFace, flowerFace, tileGroup } from "../dom.js";
import { ALL_TILES, FLOWERS, SEATS, SUIT_LETTERS, compareTiles, suitOf } from "../tiles.js";
import { WIN_BY, REPLACEMENT, EXTRAS } from "../input.js";
import { countMessage, describe, meldKindLabel, tileInMessage, rulesetSummary, houseCount, describeNested, rulesetName, tileName } from "../format.js";
import { limitsAdd } from "../custom.js";
import { parseDraws } from "../discard.js";
import { tOf, handOf, urlFor, chartOf } from "../state.js";

function renderPalette(state) {
  const T = tOf(state);
  fill($("palette"), SUIT_LETTERS.map((s) => el("div", { className: "palette-row", "data-suit": s }, [
    el("span", { className: "palette-label", text: T("suit." + s) }),
    el("div", { className: "tile-row" }, ALL_TILES.filter((t) => suitOf(t) === s).map((t) => tileFace(t, T, { tag: "button", attrs: { "data-count": "0", "aria-label": T("tile.in_label", { code: t, name: tileName(t, T) }) } })))
  ])));
}

function options(select, items) {
  const v = select.value;
  fill(select, items.map(([value, text]) => el("option", { value, text })));
  if (items.some(([value]) => value === v)) select.value = v;
}

/** Fills the selects whose options are translated (seats, win by, ...). */
function renderOptions(state) {
  const T = tOf(state);
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
function renderContext(state) {
  const c = state.input.context;
  $("seat-wind").value = c.seat_wind;
  $("round-wind").value = c.round_wind;
  $("win-by").value = c.win_by;
  $("discarder").value = c.win_by === "self_draw" ? "" : c.discarder;
  $("discarder").disabled = c.win_by === "self_draw";
  $("replacement").value = c.replacement;
  $("liable").value = c.liable;
  for (const e of EXTRAS) document.querySelector("[data-extra='" + e + "']").checked = !!c[e];
  const h = state.input.house;
  $("hr-min-faan").value = h.min_faan != null ? String(h.min_faan) : "";
  $("hr-limit").value = h.limit != null ? String(h.limit) : "";
  $("hr-flowers").value = h.flowers != null ? String(h.flowers) : "";
  const table = Array.isArray(h.points);
  $("hr-points").value = table ? "table" : h.points || (state.panel.pointsTable ? "table" : "");
  $("hr-points-table").hidden = $("hr-points").value !== "table";
  if (table && document.activeElement !== $("hr-points-table")) $("hr-points-table").value = h.points.join(", ");
  $("hr-discard-payment").value = h.discard_payment || "";
  renderLimits(state);
  const n = houseCount(h, state.server.info[state.input.ruleset], state.server.details[state.input.ruleset]);
  $("house-rules-count").textContent = n ? tOf(state)("house.count", { n }) : tOf(state)("house.none");
  // House rules set (a shared link, an import): the panel shows them.
  if (Object.keys(h).length) $("house-rules").open = true;
  $("cmp-custom").checked = state.input.compareCustom;
}

/** Limits that add: the choice, and how a total above the limit pays only where limits add (the house's or the chart's). */
function renderLimits(state) {
  const h = state.input.house;
  $("hr-limits-add").value = h.limits_add != null ? String(h.limits_add) : "";
  $("hr-limits-pay").value = h.limits_pay || "";
  $("hr-limits-pay-field").hidden = !limitsAdd(chartOf(state), h) && h.limits_pay == null;
}

function renderRulesetSelect(state) {
  const sel = $("ruleset");
  const list = state.server.rulesets;
  if (list.length) fill(sel, list.map((r) => el("option", { value: r.id, text: rulesetName(r, tOf(state)) })));
  if (!list.some((r) => r.id === state.input.ruleset) && list.length) {
    // An id the server does not know stays selectable, so its error shows.
    sel.appendChild(el("option", { value: state.input.ruleset, text: state.input.ruleset }));
  }
  sel.value = state.input.ruleset;
  if (state.server.loaded) document.body.setAttribute("data-rulesets-loaded", "true");
}

function renderRulesetSummary(state) {
  const T = tOf(state);
  const r = state.server.info[state.input.ruleset];
  const detail = state.server.details[state.input.ruleset];
  const box = $("ruleset-summary");
  if (!state.server.rulesets.length) { box.textContent = T(state.server.failed ? "rules.load_failed" : "rules.loading"); return; }
  const lines = rulesetSummary(r, detail, state.input.house).map((m) => el("span", { className: "summary-line", text: describeNested(m, T) }));
  if (r && T.lang === "en" && r.summary) lines.push(el("span", { className: "summary-line prose", text: r.summary }));
  fill(box, lines);
  const link = $("ruleset-notes-link");
  link.textContent = T("rules.notes_link", { name: rulesetName(r, T, state.input.ruleset) });
  link.href = urlFor(state, { view: "rules" });
  $("hr-min-faan").placeholder = r ? String(r.min_faan) : "";
  $("hr-limit").placeholder = r ? String(r.limit) : "";
}

/** The hand box's companions: tiles, count, winning tile, melds, palette counts, flowers. */
function renderHand(state) {
  const T = tOf(state), d = handOf(state), st = state.input;
  // Typing keeps the box and the state equal: a difference is a change from elsewhere (a tap, the next hand).
  const box = $("hand-text");
  if (box.value !== st.text) box.value = st.text;

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
  // The Chinese page names a tile; the English one gives its code first, as typed.
  fill(sel, [el("option", { value: "", text: last ? T("win.auto", { tile: T.lang === "zh" ? tileName(last, T) : last }) : T("win.none") })]
    .concat(uniq.map((t) => el("option", { value: t, text: T.lang === "zh" ? tileName(t, T) : t + " · " + tileInMessage(t, T) }))));
  sel.value = d.winningFrom === "picked" ? d.winning : "";

  // Declared melds.
  fill($("melds"), d.melds.map((m, i) => el("li", { className: "meld", "data-pointer": "/hand/melds/" + i, "data-meld-index": String(i) }, [
    tileGroup(m.tiles, T, "declared"),
    el("span", { className: "meld-kind", text: meldKindLabel(m, T) }),
    el("button", { type: "button", className: "link", "data-remove-meld": String(i), "aria-label": T("melds.remove_aria", { tiles: T.lang === "zh" ? m.tiles.map((t) => tileName(t, T)).join("") : m.tiles.join("") }), text: T("melds.remove") }),
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

/** Where a palette tap goes: the radio and its label. */
function renderTarget(state) {
  for (const l of document.querySelectorAll("#target label")) {
    const input = l.querySelector("input");
    input.checked = input.value === state.target;
    l.classList.toggle("on", input.checked);
  }
}

/** The palette's last message. */
function renderSaid(state) {
  const node = $("palette-message");
  const msg = state.said;
  node.textContent = msg ? describe(msg, tOf(state), state.input.context) : "";
  node.setAttribute("data-key", msg ? msg.key : "");
}

/** The discard card's inputs from the state (not the box being typed in). */
export const discardInputsView = {
  deps: (s) => [s.input.seen, s.input.draws, s.input.selfDrawOnly, s.input.handChanges, s.input.shantenDown],
  render(state) {
    const s = state.input;
    const seen = $("seen-text");
    if (document.activeElement !== seen) seen.value = s.seen || "";
    const draws = $("draws");
    if (document.activeElement !== draws) draws.value = s.draws == null ? "" : s.draws;
    // Each choice of the chances model means something only with chances asked; stepping back a shanten only with hand changes.
    const noChances = parseDraws(s.draws).value == null;
    $("self-draw-only").checked = !!s.selfDrawOnly;
    $("self-draw-only").disabled = noChances;
    $("hand-changes").checked = !!s.handChanges;
    $("hand-changes").disabled = noChances;
    $("shanten-down").checked = !!(s.handChanges && s.shantenDown);
    $("shanten-down").disabled = noChances || !s.handChanges;
  }
};

// In this order: the options before the values chosen among them, the
// palette before its counts.
export const entryViews = [
  { deps: (s) => [s.lang], render: renderPalette },
  { deps: (s) => [s.lang], render: renderOptions },
  { deps: (s) => [s.lang, s.server, s.input.ruleset], render: renderRulesetSelect },
  { deps: (s) => [s.target], render: renderTarget },
  { deps: (s) => [s.lang, s.input, s.panel.pointsTable, s.server.details], render: renderContext },
  { deps: (s) => [s.lang, s.input], render: renderHand },
  { deps: (s) => [s.lang, s.server, s.input], render: renderRulesetSummary },
  { deps: (s) => [s.lang, s.said, s.input.context], render: renderSaid }
];
