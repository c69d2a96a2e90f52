// faan calculator: wires the state (state.js), the views (views/*.js) and
// the API (api.js). No framework, no build step, no network but this server.
//
// Every change goes the same way: update the state, redraw the inputs, put
// the state in the URL, mark the answer on screen out of date, and rescore
// the current view after a short pause (when the hand is ready for it).
//
// A view is `{id, section, path | pathFor, ready(app), render(app, res, ctx)}`;
// a view sending something else than the calculator's hand gives `body(app)`
// (the table's ledger). A new view is one module added to VIEWS.

import { $, glyphsSupported, richText } from "./dom.js";
import { emptyState, derive, fromQuery, toQuery, requestBody, addTile, addMeld, removeTile, removeMeld, EXTRAS, readyToScore } from "./state.js";
import { seatBefore, SEATS } from "./tiles.js";
import { makeT, translate, detectLang, storedLang, storeLang } from "./i18n.js";
import { describe, localErrors, mapProblem, countMessage, meldKindLabel } from "./format.js";
import { Latest, call, isAbort } from "./api.js";
import { renderPalette, renderOptions, renderContext, renderRulesetSelect, renderRulesetSummary, renderHand, renderLimits } from "./views/entry.js";
import { showErrors, clearErrors } from "./views/errors.js";
import { scoreView } from "./views/score.js";
import { compareView } from "./views/compare.js";
import { waitsView } from "./views/waits.js";
import { discardView, renderDiscardInputs, discardProblems } from "./views/discard.js";
import { rulesView } from "./views/rules.js";
import { tableView, renderTableInputs, renderTableRules, contextFor } from "./views/table.js";
import { renderHousePanel, pageCatalogue } from "./views/house.js";
import { importProblems } from "./custom.js";
import { rulesetDocument, compareWithCustom, isCustom, withLimits, withPattern, withCondition, docPointer, documentFileName, houseFromDocument, toggleContains, withContains, defaultContains, pruneContains, withExclusive, withoutExclusive, namedPatterns } from "./custom.js";
import { cleanRules } from "./ledger.js";
import { loadNight, saveNight, emptyNight, seated, currentDeal, playerProblems, winEntry, drawEntry, falseWinEntry, addHand, undo, ledgerMessages, MAX_HANDS, stageWinner, unstage, parseStake, parseMultiplier, withRule } from "./ledger.js";

const VIEWS = { score: scoreView, compare: compareView, waits: waitsView, rules: rulesView, table: tableView };
VIEWS.discard = discardView;
const DEBOUNCE_MS = 250;
const SECTIONS = ["result", "compare", "waits", "rules", "table"];
SECTIONS.push("discard");

const app = {
  state: emptyState(),
  d: null,
  t: makeT("en"),
  rulesets: [],
  rulesetInfo: {},
  details: {},
  rulesetsFailed: false,
  latest: new Latest(),
  timer: 0,
  shown: null,      // {view, res, ctx, key}: the answer on screen
  errors: null,     // {messages}: the errors on screen (redrawn on a language change)
  status: { key: "status.idle" },
  say: null,        // the palette's last message
  night: emptyNight(),  // the table's players and hands (local storage)
  tableAnswer: null,    // the last ledger answer (the coming deal comes from it)
  patternTable: null,   // GET /v1/patterns: every pattern and condition (custom.js, catalogue)
  containsEditing: "",  // the pattern whose contains the House rules panel shows
  validateMissing: false, // the server has no POST /v1/rulesets/validate
  tableWinner: "",      // the coming hand's winner, chosen by name ("" until chosen)
  preview: null,        // {res, ctx, key}: the next hand scored in the Table view
  previewLatest: new Latest(),
  /** The player at `seat` in the coming hand of a seated night ("" otherwise). */
  seatName(seat) {
    const deal = tableDeal();
    return deal && !deal.complete ? deal.seats[seat] || "" : "";
  },
  urlFor(change) {
    const s = { ...app.state, ...change };
    if (change && change.ruleset && !change.view) s.view = app.state.view;
    const q = toQuery(s);
    return q ? "?" + q : "?";
  }
};

// ------------------------------------------------------------------ language

function applyLanguage(lang) {
  app.t = makeT(lang);
  const T = app.t;
  document.documentElement.lang = lang === "zh" ? "zh-Hant-HK" : "en";
  document.body.setAttribute("data-lang", lang);
  for (const n of document.querySelectorAll("[data-i18n]")) n.textContent = T(n.getAttribute("data-i18n"));
  for (const n of document.querySelectorAll("[data-i18n-html]")) richText(n, T(n.getAttribute("data-i18n-html")));
  for (const n of document.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of n.getAttribute("data-i18n-attr").split(";")) {
      const [attr, key] = pair.split(":");
      n.setAttribute(attr, T(key));
    }
  }
  for (const b of document.querySelectorAll("[data-lang]")) {
    if (b.tagName === "BUTTON") b.setAttribute("aria-pressed", String(b.getAttribute("data-lang") === lang));
  }
  renderPalette(app);
  renderOptions(app);
  renderRulesetSelect(app);
  redrawInputs();
  // What is on screen, again in the new language.
  if (app.shown) VIEWS[app.shown.view].render(app, app.shown.res, app.shown.ctx);
  if (app.preview) scoreView.render(app, app.preview.res, app.preview.ctx);
  if (app.errors) showErrors(app, app.errors.messages, false);
  setStatus(app.status.state, app.status.key, app.status.params);
  if (app.say) say(app.say);
  markStale();
}

// ------------------------------------------------------------------ drawing

function redrawInputs() {
  app.d = derive(app.state);
  $("cmp-custom").checked = !!app.state.compareCustom;
  renderContext(app);
  renderHand(app);
  renderRulesetSummary(app);
  renderTableInputs(app);
  renderDiscardInputs(app);
  if ($("house-rules").open) renderHousePanel(app);
}

function setStatus(state, key, params) {
  app.status = { state: state || "idle", key, params };
  const st = $("status");
  st.setAttribute("data-state", app.status.state);
  st.textContent = describe({ key, params }, app.t);
  renderStrip();
}

// On a phone the answer is far below the palette: a one-line strip under
// it shows the total and payments, or the status when something is wrong
// (cannot reach the server, problems), where the player is looking.
function renderStrip() {
  const strip = $("phone-strip");
  const T = app.t;
  const st = app.status;
  const shown = app.preview || (app.shown && app.shown.view === "score" ? app.shown : null);
  strip.setAttribute("data-state", st.state);
  if (st.state !== "ok" || !shown) {
    strip.hidden = st.state !== "error";
    strip.textContent = st.state === "error" ? describe({ key: st.key, params: st.params }, T) : "";
    return;
  }
  const res = shown.res;
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  strip.hidden = false;
  strip.textContent = [T("strip.score", { faan: res.total_faan })].concat(SEATS.map((s) => (app.seatName(s) || T("seat." + s)) + " " + signed(res.payments[s]))).join(" · ");
}

function say(msg) {
  app.say = msg;
  const node = $("palette-message");
  node.textContent = msg ? describe(msg, app.t, app.state.context) : "";
  node.setAttribute("data-key", msg ? msg.key : "");
}

function showSection(id) {
  for (const s of SECTIONS) $(s).hidden = s !== id;
}

/** The request a view would send now (its key tells an answer out of date). */
function requestKey(view) {
  const v = VIEWS[view];
  return view + " " + app.state.ruleset + " " + (v.noBody ? "" : JSON.stringify(bodyOf(view)));
}

function bodyOf(viewId, pending) {
  const v = VIEWS[viewId];
  const doc = viewId === "compare" ? customDocument() : null;
  if (doc) return compareWithCustom(requestBody("compare", app.state, app.d), app.rulesets.map((r) => r.id), doc);
  return v.body ? v.body(app, pending) : requestBody(viewId, app.state, app.d);
}

// The answer on screen dimmed with a note once the inputs have moved on.
function markStale() {
  const out = $("output");
  const shown = app.shown;
  const stale = !!shown && (shown.view !== app.state.view || shown.key !== requestKey(shown.view));
  out.setAttribute("data-stale", String(stale));
  const note = $("stale-note");
  note.hidden = !stale;
  if (!stale) { note.textContent = ""; return; }
  const T = app.t;
  const v = VIEWS[app.state.view];
  let tail;
  // Problems on screen (the page's or the server's): nothing is rescored until they are fixed.
  if (app.d.errors.length || app.d.over.length || app.errors) tail = T("stale.fix");
  else if (!v.ready(app)) {
    const cm = countMessage(app.d);
    tail = T("stale.incomplete", { why: cm.more ? describe(cm.more, T) : describe(cm, T) });
  } else tail = T("stale.rescoring");
  note.textContent = T("stale.note") + " " + tail;
}

// -------------------------------------------------------------------- flow

/** Applies a state change from the player and schedules a rescore. */
function update(next, opts) {
  app.state = next;
  redrawInputs();
  history.replaceState(null, "", app.urlFor({}));
  markStale();
  if (!(opts && opts.noRescore)) schedule();
}

function schedule() {
  clearTimeout(app.timer);
  app.timer = setTimeout(auto, DEBOUNCE_MS);
}

// The rescore after typing: only when the hand is ready for the view; the
// page's own checks show at once, without moving the focus.
function auto() {
  const view = VIEWS[app.state.view];
  const local = view.noBody || view.body ? [] : localErrors(app.d, view.id, false);
  if (local.length) {
    app.latest.cancel();
    showProblems(local, false);
    return;
  }
  // The table's request does not hang on the hand box: typing the next hand leaves it be.
  // The next hand is scored beside it as soon as it is complete and its winner chosen.
  if (view.body && app.shown && app.shown.view === view.id && app.shown.key === requestKey(view.id)) { markStale(); runPreview(); return; }
  if (view.id === "table" && !view.ready(app)) { runPreview(); return; }
  if (view.ready(app)) { run(view.id, false); return; }
  app.latest.cancel();
  if (app.errors) { app.errors = null; clearErrors(); }
  if (!app.shown) setStatus("idle", "status.idle");
  markStale();
}

function showProblems(messages, focus) {
  // A rescore pending or in flight would clear these when it answers.
  clearTimeout(app.timer);
  app.latest.cancel();
  // Patterns a server message names by id, named in the page's language.
  if (messages.some((m) => m.params && (m.params.pattern || m.params.via))) {
    const cat = pageCatalogue(app);
    messages = messages.map((m) => namedPatterns(m, cat));
  }
  app.errors = { messages };
  showErrors(app, messages, focus);
  setStatus("error", "status.problems", { n: messages.length });
  markStale();
}

/**
 * Sends the view's request; `submit` (a button): the page's checks first,
 * focus to the first error. `pending` (the table): a night to send in place
 * of the stored one, kept (stored) only when the server answers it.
 */
async function run(viewId, submit, pending) {
  clearTimeout(app.timer);
  // The winners staged before this hand: the calculator's is the next one.
  const staged = (app.night.pending || []).length;
  const view = VIEWS[viewId];
  if (app.state.view !== viewId) {
    app.state = { ...app.state, view: viewId };
    history.replaceState(null, "", app.urlFor({}));
  }
  if (!view.noBody && !view.body) {
    const local = localErrors(app.d, viewId, submit);
    if (local.length) { app.latest.cancel(); showProblems(local, submit); return; }
  }
  const body = view.noBody ? undefined : bodyOf(viewId, pending);
  const ctx = { ...app.state.context };
  const { seq, signal } = app.latest.next();
  setStatus("loading", view.loadingKey);
  markStale();
  let r;
  app.customDoc = viewId === "compare" ? customDocument() : null;
  try {
    r = view.noBody
      ? await call("GET", view.pathFor(app), undefined, signal)
      : await call("POST", view.path, body, signal);
  } catch (e) {
    if (isAbort(e) || !app.latest.isLatest(seq)) return;
    setStatus("error", "status.unreachable");
    return;
  }
  // A newer request was sent meanwhile: this answer is out of date.
  if (!app.latest.isLatest(seq)) return;
  if (!r.ok) {
    let messages = mapProblem(r.status, r.json).map((m) => ({ ...m, pointer: docPointer(m.pointer) }));
    // A refused hand is not kept: the table on screen stays as it was.
    if (pending) messages = ledgerMessages(messages, pending.hands.length - 1, staged);
    else { app.shown = null; showSection(null); }
    showProblems(messages, submit);
    return;
  }
  if (pending) commitNight(pending);
  const key = requestKey(viewId);
  app.errors = null;
  clearErrors();
  const status = view.render(app, r.json, ctx);
  app.shown = { view: viewId, res: r.json, ctx, key };
  showSection(view.section);
  if (pending) nextHand(pending);
  if (viewId === "table") runPreview();
  setStatus("ok", status.key, status.params);
  markStale();
  document.body.setAttribute("data-answered", String(seq));
  if (submit && window.matchMedia && window.matchMedia("(max-width: 899px)").matches) $("output").scrollIntoView({ block: "start" });
}

// ---------------------------------------------------------------- editing

function target() {
  const r = document.querySelector("input[name=target]:checked");
  return r ? r.value : "hand";
}

function setTarget(v) {
  const r = document.querySelector("input[name=target][value='" + v + "']");
  if (r) r.checked = true;
  for (const l of document.querySelectorAll("#target label")) {
    const input = l.querySelector("input");
    l.classList.toggle("on", !!(input && input.checked));
  }
}

function paletteTap(t) {
  const tg = target();
  let r;
  if (tg === "hand") r = addTile(app.state, t);
  else {
    const kind = tg.startsWith("kong") ? "kong" : tg;
    r = addMeld(app.state, kind, t, { concealed: tg === "kong-concealed", added: tg === "kong-added" });
  }
  if (r.refused) {
    const p = { tile: r.refused.tile };
    say({ key: "refused." + r.refused.code, params: p });
    return;
  }
  if (r.meld) {
    say({ key: "said.declared", params: { meld: meldKindLabel(r.meld, app.t) + " " + r.meld.tiles.join("") } });
    setTarget("hand");
  } else say({ key: "said.added", params: { tile: t } });
  update(r.meld ? r.state : { ...r.state, winPick: sharedTile() });
}

/** The shared discard while winners are staged on it: the next winner's winning tile ("" otherwise). */
function sharedTile() {
  const first = (app.night.pending || [])[0];
  return (first && first.hand.winning_tile) || "";
}

function readHouseRules() {
  const h = {};
  const min = $("hr-min-faan").value.trim();
  if (min !== "") h.min_faan = Number(min);
  const lim = $("hr-limit").value.trim();
  if (lim !== "") h.limit = Number(lim);
  const fl = $("hr-flowers").value;
  if (fl !== "") h.flowers = fl === "true";
  const pts = $("hr-points").value;
  app.pointsTable = pts === "table";
  if (pts === "table") {
    const nums = $("hr-points-table").value.split(/[\s,]+/).filter(Boolean).map(Number);
    if (nums.length && nums.every((x) => Number.isInteger(x) && x >= 0)) h.points = nums;
  } else if (pts !== "") h.points = pts;
  const dp = $("hr-discard-payment").value;
  if (dp !== "") h.discard_payment = dp;
  const la = $("hr-limits-add").value;
  const lp = $("hr-limits-pay").value;
  return withLimits(h, app.details[app.state.ruleset], la === "" ? null : la === "true", lp || null);
}

// ---------------------------------------------------------- house rules

const KEPT_HOUSE = ["patterns", "conditions", "contains", "exclusive"];

/** The house rules after a change in the panel: its plain controls read again, patterns and switches kept. */
function houseChanged(e) {
  const t = e.target;
  let house = app.state.house;
  const chart = app.details[app.state.ruleset];
  if (t.hasAttribute("data-pattern-value")) house = pruneContains(withPattern(house, t.getAttribute("data-pattern-value"), t.value), chart);
  else if (t.hasAttribute("data-contains-of")) house = toggleContains(house, chart, pageCatalogue(app), t.getAttribute("data-contains-of"), t.getAttribute("data-contains"), t.checked);
  else if (t.id === "hr-contains-pattern") { app.containsEditing = t.value; renderHousePanel(app); return; }
  else if (t.id === "hr-exclusive-a" || t.id === "hr-exclusive-b") return;
  else if (t.hasAttribute("data-condition")) house = withCondition(house, t.getAttribute("data-condition"), t.value === "" ? null : t.value === "true");
  else if (t.id === "cmp-custom") { update({ ...app.state, compareCustom: t.checked || undefined }, { noRescore: true }); return; }
  else if (t.closest("#hr-export-box")) return;
  else {
    const kept = {};
    for (const k of KEPT_HOUSE) if (house[k] != null) kept[k] = house[k];
    house = { ...readHouseRules(), ...kept };
  }
  update({ ...app.state, house });
  if (!$("hr-export-text").hidden) showDocument(false);
}

/** The panel's buttons: a contains list back to the ruleset's, an exclusive pair added or removed. */
function houseClicked(e) {
  const chart = app.details[app.state.ruleset];
  const house = app.state.house || {};
  const reset = e.target.closest("[data-contains-reset]");
  const remove = e.target.closest("[data-exclusive-remove]");
  let next = null;
  if (reset) {
    const id = reset.getAttribute("data-contains-reset");
    next = withContains(house, chart, pageCatalogue(app), id, defaultContains(chart, pageCatalogue(app), id));
  } else if (remove) next = withoutExclusive(house, parseInt(remove.getAttribute("data-exclusive-remove"), 10));
  else if (e.target.id === "btn-add-exclusive") next = withExclusive(house, chart, $("hr-exclusive-a").value, $("hr-exclusive-b").value);
  if (!next || next === house) return;
  update({ ...app.state, house: next });
  if (!$("hr-export-text").hidden) showDocument(false);
}

/** The page's rules as a ruleset document over the chosen ruleset (null: nothing changed, or its chart not loaded). */
function customDocument() {
  const chart = app.details[app.state.ruleset];
  const table = cleanRules(app.night.rules);
  if (!app.state.compareCustom && !app.exporting) return null;
  if (!chart || !isCustom(app.state.house, table)) return null;
  // The document carries both names, so the Chinese page names it in Chinese whichever page made it.
  const names = { name: app.t("house.custom_name", { name: chart.name }) };
  if (chart.name_zh) names.name_zh = translate("zh", "house.custom_name", { name: chart.name_zh });
  return rulesetDocument(chart, app.state.house, table, { ...names, catalogue: pageCatalogue(app) });
}

// The panel opened: every ruleset's chart (each pattern's values and
// contains) and the pattern table.
async function openHousePanel() {
  renderHousePanel(app);
  await Promise.all(app.rulesets.map((r) => loadDetail(r.id)).concat([loadPatterns()]));
  if ($("house-rules").open) renderHousePanel(app);
}

/** Shows the document (text, download, copy); with `check`, asks the server whether it holds. */
async function showDocument(check) {
  const T = app.t;
  await Promise.all([loadDetail(app.state.ruleset), loadPatterns()]);
  app.exporting = true;
  const doc = customDocument();
  app.exporting = false;
  const status = $("hr-export-status");
  const text = doc ? JSON.stringify(doc, null, 2) : "";
  $("hr-export-text").value = text;
  $("hr-export-text").hidden = !doc;
  $("hr-download").hidden = !doc;
  $("btn-copy-doc").hidden = !doc;
  status.removeAttribute("data-hash");
  status.setAttribute("data-state", doc ? "shown" : "none");
  if (!doc) { status.textContent = T("house.doc_nothing"); return; }
  $("hr-download").href = "data:application/json;charset=utf-8," + encodeURIComponent(text + "\n");
  $("hr-download").setAttribute("download", documentFileName(doc));
  status.textContent = "";
  if (!check) return;
  if (app.validateMissing) { status.textContent = T("house.doc_unchecked"); status.setAttribute("data-state", "unchecked"); return; }
  try {
    const r = await call("POST", "/v1/rulesets/validate", { ruleset: doc });
    if (r.ok && r.json) {
      status.textContent = T("house.doc_valid", { hash: String(r.json.ruleset_hash || "").slice(0, 12) });
      status.setAttribute("data-state", "valid");
      status.setAttribute("data-hash", String(r.json.ruleset_hash || ""));
    } else if (r.status === 404 || r.status === 405) {
      app.validateMissing = true;
      status.textContent = T("house.doc_unchecked");
      status.setAttribute("data-state", "unchecked");
    } else {
      status.setAttribute("data-state", "invalid");
      showProblems(mapProblem(r.status, r.json).map((m) => ({ ...m, pointer: docPointer(m.pointer) })), true);
    }
  } catch (e) {
    status.textContent = T("status.unreachable");
  }
}

async function copyDocument() {
  const box = $("hr-export-text");
  try {
    await navigator.clipboard.writeText(box.value);
  } catch (e) {
    box.hidden = false;
    box.select();
    document.execCommand("copy");
  }
  $("hr-export-status").textContent = app.t("house.copied");
}

// A pasted or uploaded document: its base ruleset chosen, its changes set
// as house rules and table rules; what the panel cannot show is named.
async function importDocument() {
  const T = app.t;
  const status = $("hr-export-status");
  // The status line always describes this attempt: a refusal changes nothing and says so.
  const refuse = (messages) => {
    status.textContent = T("house.import_refused", { n: messages.length });
    status.setAttribute("data-state", "import-refused");
    showProblems(messages, true);
  };
  const at = (key, params) => refuse([{ pointer: "/ruleset_document", key, params }]);
  status.textContent = T("house.importing");
  status.setAttribute("data-state", "importing");
  let doc;
  try { doc = JSON.parse($("hr-import-text").value); } catch (e) { at("house.import_not_json"); return; }
  if (doc && typeof doc.extends === "string") await loadDetail(doc.extends);
  await loadPatterns();
  const cat = pageCatalogue(app);
  const r = houseFromDocument(doc, doc && app.details[doc.extends], cat);
  if (r.problem) { at(r.problem); return; }
  // Only patterns GET /v1/patterns lists (the page's catalogue from it).
  const mine = importProblems(doc, app.details[doc.extends], app.patternTable ? cat : null);
  if (mine.length) { refuse(mine); return; }
  // Then the server's word on the whole document (POST /v1/rulesets/validate), before anything is set.
  if (!app.validateMissing) {
    let v = null;
    try { v = await call("POST", "/v1/rulesets/validate", { ruleset: doc }); } catch (e) { at("status.unreachable"); return; }
    if (v.status === 404 || v.status === 405) app.validateMissing = true;
    else if (!v.ok) {
      refuse(mapProblem(v.status, v.json).map((m) => ({ ...m, pointer: "/ruleset_document" })));
      return;
    }
  }
  let night = app.night;
  for (const [k, v] of Object.entries(r.table)) night = withRule(night, k, v);
  commitNight({ ...night, rules: cleanRules(night.rules) });
  app.errors = null;
  clearErrors();
  update({ ...app.state, ruleset: r.ruleset, house: r.house });
  renderRulesetSelect(app);
  renderHousePanel(app);
  $("hr-export-status").textContent = r.skipped.length ? T("house.imported_skipped", { keys: r.skipped.join(", ") }) : T("house.imported");
  $("hr-export-status").setAttribute("data-state", "imported");
}

async function readImportFile() {
  const f = $("hr-import-file").files[0];
  if (!f) return;
  $("hr-import-text").value = (await f.text()).slice(0, 256 * 1024);
  importDocument();
}

// ------------------------------------------------------------------ table

function commitNight(night) {
  app.night = night;
  saveNight(window.localStorage, night);
}

function tableDeal() {
  return seated(app.night) ? currentDeal(app.night, app.tableAnswer) : null;
}

/** Adds a hand to the night: sent with the others, kept once the server answers. */
// After a hand is kept: the calculator is cleared for the next one, at the coming deal's round wind.
function nextHand(night) {
  const deal = tableDeal();
  const last = night.hands[night.hands.length - 1];
  let s = app.state;
  if (last && last.result === "win") s = { ...emptyState(), ruleset: s.ruleset, house: s.house, view: s.view };
  // Who wins the next hand is chosen again, by name: never the last one's by default.
  app.tableWinner = "";
  hidePreview();
  if (deal) s = { ...s, context: { ...s.context, round_wind: deal.round_wind } };
  $("hand-text").value = s.text;
  update(s, { noRescore: true });
}

function addToNight(entry) {
  const problems = playerProblems(app.night.players);
  if (problems.length) { showProblems(problems, true); return; }
  if (app.night.hands.length >= MAX_HANDS) { showProblems([{ pointer: "/table", key: "table.err_full", params: { max: MAX_HANDS } }], true); return; }
  run("table", true, addHand(app.night, entry));
}

/** The table's own checks of the calculator's hand as a winner: chosen by name, on the shared discard. */
function winnerProblems() {
  if (!app.tableWinner) return [{ pointer: "/table/winner", key: "table.err_winner_missing" }];
  const first = (app.night.pending || [])[0];
  if (first && first.hand.winning_tile && app.d.winning && app.d.winning !== first.hand.winning_tile) {
    return [{ pointer: "/hand/winning_tile", key: "err.co_winning_tile", params: { player: app.tableWinner, tile: app.d.winning, first_player: first.player, shared: first.hand.winning_tile } }];
  }
  return [];
}

function addWin() {
  const deal = tableDeal();
  if (!deal || deal.complete) return;
  // The hand must be scorable as it stands on the calculator.
  const local = localErrors(app.d, "score", true);
  if (local.length) { showProblems(local, true); return; }
  const mine = winnerProblems();
  if (mine.length) { showProblems(mine, true); return; }
  app.state = { ...app.state, context: contextFor(app.state.context, deal, deal.seats[app.state.context.seat_wind], app.state.context.win_by === "self_draw" ? "" : deal.seats[app.state.context.discarder]) };
  addToNight(winEntry(app.state, app.d, deal, app.night));
}

// One more winner on the same discard (一炮雙響): the calculator's hand is
// staged, and the box cleared for the next winner's hand, seated at the
// next player after the discarder who has not won yet.
function addCowinner() {
  const deal = tableDeal();
  if (!deal || deal.complete) return;
  const local = localErrors(app.d, "score", true);
  if (local.length) { showProblems(local, true); return; }
  const mine = winnerProblems();
  if (mine.length) { showProblems(mine, true); return; }
  const ctx = contextFor(app.state.context, deal, deal.seats[app.state.context.seat_wind], app.state.context.win_by === "self_draw" ? "" : deal.seats[app.state.context.discarder]);
  app.state = { ...app.state, context: ctx };
  const r = stageWinner(app.night, app.state, app.d, deal);
  if (r.problem) { showProblems([r.problem], true); return; }
  commitNight(r.night);
  app.errors = null;
  clearErrors();
  const won = r.night.pending.map((w) => w.player);
  const k = SEATS.indexOf(ctx.discarder);
  const next = [1, 2, 3].map((i) => SEATS[(k + i) % 4]).find((seat) => !won.includes(deal.seats[seat])) || ctx.seat_wind;
  // The next winner's hand ends on the same discard: its winning tile preset.
  const shared = r.night.pending[0].hand.winning_tile || "";
  app.tableWinner = "";
  hidePreview();
  const s = { ...app.state, text: "", winPick: shared, flowers: [], context: { ...ctx, seat_wind: next } };
  $("hand-text").value = "";
  update(s, { noRescore: true });
  setStatus("idle", "table.staged", { player: won[won.length - 1], n: won.length });
}

function unstageWinner(k) {
  commitNight(unstage(app.night, k));
  app.errors = null;
  clearErrors();
  renderTableInputs(app);
}

// A table rule changed: kept with the night; the night retallied (the rules
// change the money and the coming deal), or its error shown at the control.
function setTableRule(key, raw) {
  let value;
  const parsed = key === "stake" ? parseStake(raw) : key === "dealer_multiplier" ? parseMultiplier(raw) : null;
  if (parsed && parsed.error) { showProblems([parsed.error], false); return; }
  if (parsed) value = parsed.value;
  else if (key.startsWith("dealer_keeps") || key === "co_winners_pay") value = raw === "" ? undefined : raw === "true";
  else value = raw || undefined;
  commitNight(withRule(app.night, key, value));
  if (app.errors) { app.errors = null; clearErrors(); setStatus("idle", "status.idle"); }
  renderTableRules(app);
  if (!seated(app.night) || !app.night.hands.length) return;
  app.tableAnswer = null;
  if (app.state.view === "table") run("table", false);
  else refreshTable();
}

// The coming deal without showing the table (another view is on screen).
function refreshTable() {
  call("POST", tableView.path, tableView.body(app)).then((r) => {
    if (r.ok && r.json) { app.tableAnswer = r.json; renderTableInputs(app); }
  }, () => {});
}

// ------------------------------------------------------ the next hand

/** The calculator's hand as the Table view scores it: the night's table rules too. */
function previewBody() {
  const body = requestBody("score", app.state, app.d);
  const house = { ...(app.state.house || {}), ...cleanRules(app.night.rules) };
  if (Object.keys(house).length) body.house_rules = house;
  return body;
}

function hidePreview() {
  app.previewLatest.cancel();
  app.preview = null;
  if (app.state.view === "table") $("result").hidden = true;
}

// In the Table view the next hand is scored as it is typed (POST /v1/score),
// its result shown above the night, once it is complete and its winner chosen.
async function runPreview() {
  const deal = tableDeal();
  if (app.state.view !== "table" || !deal || deal.complete || !app.tableWinner || !readyToScore(app.state, app.d)) { hidePreview(); return; }
  const body = previewBody();
  const key = JSON.stringify(body);
  if (app.preview && app.preview.key === key) { $("result").hidden = false; return; }
  const ctx = { ...app.state.context };
  const { seq, signal } = app.previewLatest.next();
  let r;
  try {
    r = await call("POST", "/v1/score", body, signal);
  } catch (e) {
    if (isAbort(e) || !app.previewLatest.isLatest(seq)) return;
    setStatus("error", "status.unreachable");
    return;
  }
  if (!app.previewLatest.isLatest(seq) || app.state.view !== "table") return;
  if (!r.ok) {
    app.preview = null;
    $("result").hidden = true;
    showProblems(mapProblem(r.status, r.json), false);
    return;
  }
  if (app.errors) { app.errors = null; clearErrors(); }
  const status = scoreView.render(app, r.json, ctx);
  app.preview = { res: r.json, ctx, key };
  $("result").hidden = false;
  $("result").setAttribute("data-preview", "true");
  setStatus("ok", "status.next_hand", { player: app.tableWinner, faan: r.json.total_faan, name: status.params.name });
  document.body.setAttribute("data-previewed", String(seq));
}

function addFalseWin() {
  const who = $("table-offender").value;
  if (who) addToNight(falseWinEntry(who));
}

function undoHand() {
  if (!app.night.hands.length) return;
  commitNight(undo(app.night));
  app.tableAnswer = null;
  renderTableInputs(app);
  if (app.night.hands.length) run("table", true);
  else showTableEmpty();
}

function newNight() {
  if (app.night.hands.length && !window.confirm(app.t("table.confirm_new"))) return;
  commitNight({ ...emptyNight(), players: app.night.players.slice(), rules: app.night.rules });
  app.tableAnswer = null;
  renderTableInputs(app);
  showTableEmpty();
}

// No hands yet: nothing to ask the server.
function showTableEmpty() {
  if (app.state.view !== "table") return;
  app.shown = null;
  showSection(null);
  setStatus("idle", seated(app.night) ? "status.table_empty" : "table.need_players");
  markStale();
}

function chooseAtTable() {
  const deal = tableDeal();
  if (!deal) return;
  app.tableWinner = $("table-winner").value;
  update({ ...app.state, context: contextFor(app.state.context, deal, $("table-winner").value, $("table-discarder").value) });
}

function readContext() {
  const c = { ...app.state.context };
  c.seat_wind = $("seat-wind").value;
  c.round_wind = $("round-wind").value;
  const wasSelfDraw = c.win_by === "self_draw";
  c.win_by = $("win-by").value;
  c.discarder = c.win_by === "self_draw" ? "" : $("discarder").value;
  // Switching to a discard: the player before the winner discarded.
  if (c.win_by !== "self_draw" && (wasSelfDraw || !c.discarder)) c.discarder = c.discarder || seatBefore(c.seat_wind);
  c.replacement = $("replacement").value;
  c.liable = $("liable").value;
  for (const e of EXTRAS) c[e] = document.querySelector("[data-extra='" + e + "']").checked;
  return c;
}

function reset() {
  clearTimeout(app.timer);
  app.latest.cancel();
  app.shown = null;
  app.errors = null;
  clearErrors();
  say(null);
  setTarget("hand");
  showSection(null);
  app.pointsTable = false;
  $("hand-text").value = "";
  $("house-rules").open = false;
  setStatus("idle", "status.idle");
  update(emptyState(), { noRescore: true });
  renderRulesetSelect(app);
}

function example() {
  reset();
  update({ ...emptyState(), text: "123456m78p23455s9p" });
}

// ------------------------------------------------------------------- start

async function loadRulesets() {
  try {
    const r = await call("GET", "/v1/rulesets");
    app.rulesets = (r.json && r.json.rulesets) || [];
    for (const x of app.rulesets) app.rulesetInfo[x.id] = x;
  } catch (e) {
    app.rulesetsFailed = true;
  }
  renderRulesetSelect(app);
  document.body.setAttribute("data-rulesets-loaded", "true");
  loadDetail(app.state.ruleset);
}

// Every pattern and condition (GET /v1/patterns), once; without it the
// panel lists the patterns of the charts it has.
async function loadPatterns() {
  if (app.patternTable) return;
  try {
    const r = await call("GET", "/v1/patterns");
    if (r.ok && r.json && Array.isArray(r.json.patterns)) { app.patternTable = r.json; if ($("house-rules").open) renderHousePanel(app); }
  } catch (e) { /* the charts' patterns only */ }
}

// The ruleset's payments and notes, for its summary.
async function loadDetail(id) {
  if (app.details[id] || !app.rulesetInfo[id]) return;
  try {
    const r = await call("GET", "/v1/rulesets/" + encodeURIComponent(id));
    if (r.ok && r.json) { app.details[id] = r.json; renderRulesetSummary(app); renderLimits(app); renderTableRules(app); if ($("house-rules").open) renderHousePanel(app); }
  } catch (e) { /* the summary keeps its first line */ }
}

function wire() {
  $("hand-text").addEventListener("input", () => update({ ...app.state, text: $("hand-text").value, winPick: sharedTile() }));
  $("hand-text").addEventListener("blur", () => { $("hand-text").value = app.state.text; });
  $("btn-clear-hand").addEventListener("click", () => { say(null); update({ ...app.state, text: "", winPick: "" }); $("hand-text").focus(); });
  $("winning-tile").addEventListener("change", () => update({ ...app.state, winPick: $("winning-tile").value }));
  $("target").addEventListener("change", () => setTarget(target()));
  $("palette").addEventListener("click", (e) => {
    const b = e.target.closest("[data-tile]");
    if (b) paletteTap(b.getAttribute("data-tile"));
  });
  $("hand").addEventListener("click", (e) => {
    const b = e.target.closest("[data-hand-index]");
    if (b) { say(null); update(removeTile(app.state, parseInt(b.getAttribute("data-hand-index"), 10))); }
  });
  $("melds").addEventListener("click", (e) => {
    const b = e.target.closest("[data-remove-meld]");
    if (b) update(removeMeld(app.state, parseInt(b.getAttribute("data-remove-meld"), 10)));
  });
  $("flowers").addEventListener("click", (e) => {
    const b = e.target.closest("[data-flower]");
    if (!b) return;
    const id = b.getAttribute("data-flower");
    const fl = app.state.flowers.includes(id) ? app.state.flowers.filter((f) => f !== id) : app.state.flowers.concat([id]);
    update({ ...app.state, flowers: fl });
  });
  $("context-section").addEventListener("change", () => update({ ...app.state, context: readContext() }));
  $("ruleset").addEventListener("change", () => {
    update({ ...app.state, ruleset: $("ruleset").value });
    loadDetail(app.state.ruleset);
  });
  $("house-rules").addEventListener("change", houseChanged);
  $("house-rules").addEventListener("input", (e) => { if (e.target.type === "number" || e.target.type === "text") houseChanged(e); });
  $("house-rules").addEventListener("toggle", () => { if ($("house-rules").open) openHousePanel(); });
  $("house-rules").addEventListener("click", houseClicked);
  $("btn-export").addEventListener("click", () => showDocument(true));
  $("btn-copy-doc").addEventListener("click", copyDocument);
  $("btn-import").addEventListener("click", importDocument);
  $("hr-import-file").addEventListener("change", readImportFile);
  $("calc").addEventListener("submit", (e) => { e.preventDefault(); run("score", true); });
  $("btn-compare").addEventListener("click", () => run("compare", true));
  $("btn-waits").addEventListener("click", () => run("waits", true));
  wireDiscard();
  $("btn-example").addEventListener("click", example);
  $("btn-reset").addEventListener("click", reset);
  for (let i = 0; i < 4; i++) {
    $("player-" + i).addEventListener("input", () => {
      if (app.night.hands.length) return;
      const players = app.night.players.slice();
      players[i] = $("player-" + i).value;
      commitNight({ ...app.night, players });
      renderTableInputs(app);
    });
  }
  $("table-winner").addEventListener("change", chooseAtTable);
  $("table-discarder").addEventListener("change", chooseAtTable);
  $("btn-add-win").addEventListener("click", addWin);
  $("btn-add-cowinner").addEventListener("click", addCowinner);
  $("table-pending").addEventListener("click", (e) => {
    const b = e.target.closest("[data-unstage]");
    if (b) unstageWinner(parseInt(b.getAttribute("data-unstage"), 10));
  });
  for (const key of ["stake", "dealer_keeps_on_win", "dealer_keeps_on_draw", "multiple_winners", "co_winners_pay", "dealer_multiplier", "liable_discard"]) {
    const control = $("tr-" + key.replace(/_/g, "-"));
    control.addEventListener("change", () => setTableRule(key, control.value));
  }
  $("btn-add-draw").addEventListener("click", () => addToNight(drawEntry()));
  $("btn-add-false-win").addEventListener("click", addFalseWin);
  $("btn-undo").addEventListener("click", undoHand);
  $("btn-new-night").addEventListener("click", newNight);
  $("btn-table").addEventListener("click", () => {
    if (app.night.hands.length) run("table", true);
    else { app.state = { ...app.state, view: "table" }; history.replaceState(null, "", app.urlFor({})); showTableEmpty(); }
  });
  for (const b of document.querySelectorAll("button[data-lang]")) {
    b.addEventListener("click", () => { storeLang(b.getAttribute("data-lang")); applyLanguage(b.getAttribute("data-lang")); });
  }
  // In-page links to a view (the ruleset's notes, back to the score, a compared ruleset).
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='?']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    const next = fromQuery(a.getAttribute("href"));
    update({ ...app.state, view: next.view, ruleset: next.ruleset }, { noRescore: true });
    renderRulesetSelect(app);
    loadDetail(app.state.ruleset);
    run(next.view, false);
    $("output").scrollIntoView({ block: "start" });
  });
}

// Which tile to discard: its inputs, and its button (the page's checks of the hand and the card first).
function wireDiscard() {
  const checked = (submit) => {
    const problems = localErrors(app.d, "discard", submit).concat(discardProblems(app.state));
    if (problems.length) showProblems(problems, submit);
    return !problems.length;
  };
  $("seen-text").addEventListener("input", () => { update({ ...app.state, seen: $("seen-text").value }); if (app.state.view === "discard") checked(false); });
  $("seen-text").addEventListener("blur", () => { $("seen-text").value = app.state.seen; });
  $("draws").addEventListener("input", () => { update({ ...app.state, draws: $("draws").value }); if (app.state.view === "discard") checked(false); });
  $("self-draw-only").addEventListener("change", () => update({ ...app.state, selfDrawOnly: $("self-draw-only").checked }));
  $("btn-discard").addEventListener("click", () => { if (checked(true)) run("discard", true); });
}

async function init() {
  if (!glyphsSupported()) document.body.classList.add("no-glyphs");
  app.state = fromQuery(location.search);
  app.night = loadNight(window.localStorage);
  app.d = derive(app.state);
  wire();
  setTarget("hand");
  applyLanguage(detectLang(storedLang(), navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]));
  setStatus("idle", "status.idle");
  await loadRulesets();
  renderRulesetSelect(app);
  // A shared link: its view answers at once where the hand is ready.
  const view = VIEWS[app.state.view];
  if (view.ready(app)) run(view.id, false);
  else if (app.state.text) auto();
  if (view.id === "table" && !view.ready(app)) showTableEmpty();
  // A night kept from before: the coming deal is the server's to say.
  if (view.id !== "table" && seated(app.night) && app.night.hands.length) refreshTable();
}

init();
