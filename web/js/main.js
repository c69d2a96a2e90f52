// faan calculator: the store (state.js), the views drawing it (views/*.js,
// in VIEWS below), the flows asking the server (flows.js), and the page's
// controls wired to the transitions. No framework, no build step, no
// network but this server.
//
// Every change goes the same way: a control dispatches a transition, the
// store's new state is drawn by each view whose inputs changed, kept (the
// URL, the night in local storage), and rescored after a short pause when
// the inputs moved (flows.js). A view only draws: it never writes the state.

import { $, glyphsSupported, renderer } from "./dom.js";
import { fromQuery, EXTRAS } from "./input.js";
import { detectLang, storedLang, storeLang, loadLang } from "./i18n.js";
import { localErrors } from "./format.js";
import { discardProblems } from "./discard.js";
import { loadNight, saveNight, seated, drawEntry, falseWinEntry, TABLE_RULES } from "./ledger.js";
import { createStore, initialState, handOf, tOf, urlFor } from "./state.js";
import { REQUESTS } from "./requests.js";
import { createFlows } from "./flows.js";
import { pageViews } from "./views/page.js";
import { entryViews, discardInputsView } from "./views/entry.js";
import { tableInputsView, tableRulesView, tableView } from "./views/table.js";
import { quickView } from "./views/quick.js";
import { previewTicked } from "./ticks.js";
import { scoreView } from "./views/score.js";
import { errorsView } from "./views/errors.js";
import { shareView } from "./views/share.js";
import { loadShared, saveShared, joinOf } from "./share.js";
import { createSync } from "./sync.js";
import { onAnswer } from "./api.js";

/**
 * A view whose module is loaded the first time it has something to draw
 * (`wanted`): a first load carries only the views a table uses at once.
 * Until then it draws nothing; once loaded it draws at once, as new.
 */
function lazyView(load, wanted) {
  let view = null;
  let loading = false;
  return {
    deps: (s) => (view ? view.deps(s) : [wanted(s)]),
    render(state, prev) {
      if (view) { view.render(state, prev); return; }
      if (loading || !wanted(state)) return;
      loading = true;
      // Once loaded the page is drawn afresh: this view with no `prev`, and
      // the views that fill what it draws (the problems in its slots).
      load().then((v) => { view = v; page.forget(); render(store.get()); });
    }
  };
}
const shownAs = (view) => (s) => !!s.shown && s.shown.view === view;
const compareView = lazyView(() => import("./views/compare.js").then((m) => m.compareView), shownAs("compare"));
const waitsView = lazyView(() => import("./views/waits.js").then((m) => m.waitsView), shownAs("waits"));
const rulesView = lazyView(() => import("./views/rules.js").then((m) => m.rulesView), shownAs("rules"));
const discardView = lazyView(() => import("./views/discard.js").then((m) => m.discardView), shownAs("discard"));
// The panel writes ruleset documents named in both languages: both tables come with it.
const housePanelView = lazyView(() => Promise.all([import("./views/house.js"), loadLang("en"), loadLang("zh")]).then(([m]) => m.housePanelView), (s) => s.panel.open);

/**
 * The views, in drawing order (dom.js `renderer`). The words first, the inputs, the answers, then the status and the
 * errors (whose slots the others draw).
 */
const VIEWS = [
  pageViews.language,
  ...entryViews,
  tableInputsView, tableRulesView, quickView, discardInputsView, housePanelView, pageViews.document,
  scoreView, compareView, waitsView, rulesView, tableView, discardView, shareView,
  pageViews.sections, pageViews.marks, pageViews.status, pageViews.strip, pageViews.stale, pageViews.offline,
  errorsView
];

const page = renderer(VIEWS);
const render = (state) => page.render(state);

const lang = detectLang(storedLang(), navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
await loadLang(lang);
const store = createStore(initialState({ input: fromQuery(location.search), night: loadNight(window.localStorage), shared: loadShared(window.localStorage), lang }));
store.subscribe(render);
// What is kept: the night in local storage, the inputs in the URL.
store.subscribe((s, prev) => { if (s.night !== prev.night) saveNight(window.localStorage, s.night); });
store.subscribe((s, prev) => { if (s.shared !== prev.shared) saveShared(window.localStorage, s.shared); });
store.subscribe((s, prev) => { if (s.input !== prev.input) history.replaceState(null, "", urlFor(s, {})); });
const flows = createFlows(store);
const sync = createSync(store);
flows.setShared(sync);
const { dispatch } = store;
const { act } = flows;
onAnswer((local) => dispatch({ type: "engineAnswered", local }));

// ------------------------------------------------------------ the controls

const on = (id, event, handler) => $(id).addEventListener(event, handler);
const attr = (e, name) => { const b = e.target.closest("[" + name + "]"); return b ? b.getAttribute(name) : null; };

/** The win controls as they read now. */
function contextFields() {
  const v = (id) => $(id).value;
  return {
    seat_wind: v("seat-wind"), round_wind: v("round-wind"), win_by: v("win-by"), discarder: v("discarder"),
    replacement: v("replacement"), liable: v("liable"),
    extras: EXTRAS.filter((e) => document.querySelector("[data-extra='" + e + "']").checked)
  };
}

// The House rules panel's plain controls, by the name houseControls reads them.
const HOUSE_CONTROLS = { min_faan: "hr-min-faan", limit: "hr-limit", flowers: "hr-flowers", points: "hr-points", points_table: "hr-points-table", discard_payment: "hr-discard-payment", limits_add: "hr-limits-add", limits_pay: "hr-limits-pay" };

function houseChanged(e) {
  const t = e.target;
  if (t.hasAttribute("data-pattern-value")) act({ type: "patternSet", id: t.getAttribute("data-pattern-value"), value: t.value });
  else if (t.hasAttribute("data-contains-of")) act({ type: "containsToggled", of: t.getAttribute("data-contains-of"), id: t.getAttribute("data-contains"), on: t.checked });
  else if (t.id === "hr-contains-pattern") dispatch({ type: "containsEditing", id: t.value });
  else if (t.id === "hr-exclusive-a" || t.id === "hr-exclusive-b") return;
  else if (t.hasAttribute("data-condition")) act({ type: "conditionSet", key: t.getAttribute("data-condition"), value: t.value === "" ? null : t.value === "true" });
  else if (t.id === "cmp-custom") act({ type: "compareCustomSet", on: t.checked });
  else if (t.closest("#hr-export-box")) return;
  else act({ type: "houseControls", values: Object.fromEntries(Object.entries(HOUSE_CONTROLS).map(([k, id]) => [k, $(id).value])) });
}

/** The panel's buttons: a contains list back to the ruleset's, an exclusive pair added or removed. */
function houseClicked(e) {
  const reset = attr(e, "data-contains-reset");
  const remove = attr(e, "data-exclusive-remove");
  if (reset) act({ type: "containsReset", id: reset });
  else if (remove) act({ type: "exclusiveRemoved", index: parseInt(remove, 10) });
  else if (e.target.id === "btn-add-exclusive") act({ type: "exclusiveAdded", a: $("hr-exclusive-a").value, b: $("hr-exclusive-b").value });
}

// Everything entered goes: the answer, the problems, the panel closed.
function reset(action) {
  flows.cancel();
  $("house-rules").open = false;
  return action.type === "reset" ? dispatch(action) : act(action);
}

// Which tile to discard: the page's checks of the hand and the card first.
function discardChecked(submit) {
  const s = store.get();
  const problems = localErrors(handOf(s), "discard", submit).concat(discardProblems(s.input));
  if (problems.length) dispatch({ type: "problems", messages: problems, focus: submit });
  return !problems.length;
}

function wire() {
  on("hand-text", "input", () => act({ type: "typed", text: $("hand-text").value }));
  on("btn-clear-hand", "click", () => { act({ type: "handCleared" }); $("hand-text").focus(); });
  on("winning-tile", "change", () => act({ type: "winPicked", tile: $("winning-tile").value }));
  on("target", "change", (e) => dispatch({ type: "targetChosen", target: e.target.value }));
  on("palette", "click", (e) => { const t = attr(e, "data-tile"); if (t) act({ type: "tileTapped", tile: t }); });
  on("hand", "click", (e) => { const i = attr(e, "data-hand-index"); if (i) act({ type: "tileRemoved", index: parseInt(i, 10) }); });
  on("melds", "click", (e) => { const i = attr(e, "data-remove-meld"); if (i) act({ type: "meldRemoved", index: parseInt(i, 10) }); });
  on("flowers", "click", (e) => { const f = attr(e, "data-flower"); if (f) act({ type: "flowerToggled", flower: f }); });
  on("context-section", "change", () => act({ type: "contextChanged", fields: contextFields() }));
  on("ruleset", "change", () => { act({ type: "rulesetChosen", ruleset: $("ruleset").value }); flows.loadDetail($("ruleset").value); });
  on("house-rules", "change", houseChanged);
  on("house-rules", "input", (e) => { if (e.target.type === "number" || e.target.type === "text") houseChanged(e); });
  on("house-rules", "toggle", () => { dispatch({ type: "housePanelToggled", open: $("house-rules").open }); if ($("house-rules").open) flows.openHousePanel(); });
  on("house-rules", "click", houseClicked);
  on("btn-export", "click", () => flows.showDocument(true));
  on("btn-copy-doc", "click", flows.copyDocument);
  on("btn-import", "click", () => flows.importDocument($("hr-import-text").value));
  on("hr-import-file", "change", async () => {
    const f = $("hr-import-file").files[0];
    if (!f) return;
    $("hr-import-text").value = (await f.text()).slice(0, 256 * 1024);
    flows.importDocument($("hr-import-text").value);
  });
  on("calc", "submit", (e) => { e.preventDefault(); flows.run("score", true); });
  on("btn-compare", "click", () => flows.run("compare", true));
  on("btn-waits", "click", () => flows.run("waits", true));
  on("seen-text", "input", () => { act({ type: "seenTyped", text: $("seen-text").value }); if (store.get().input.view === "discard") discardChecked(false); });
  on("seen-text", "blur", () => { $("seen-text").value = store.get().input.seen; });
  on("draws", "input", () => { act({ type: "drawsTyped", text: $("draws").value }); if (store.get().input.view === "discard") discardChecked(false); });
  on("self-draw-only", "change", () => act({ type: "selfDrawOnlySet", on: $("self-draw-only").checked }));
  on("hand-changes", "change", () => act({ type: "handChangesSet", on: $("hand-changes").checked }));
  on("shanten-down", "change", () => act({ type: "shantenDownSet", on: $("shanten-down").checked }));
  on("btn-discard", "click", () => { if (discardChecked(true)) flows.run("discard", true); });
  on("btn-example", "click", () => reset({ type: "example" }));
  on("btn-reset", "click", () => reset({ type: "reset" }));
  for (let i = 0; i < 4; i++) on("player-" + i, "input", () => dispatch({ type: "playerNamed", index: i, name: $("player-" + i).value }));
  const chosen = () => act({ type: "winnerChosen", winner: $("table-winner").value, discarder: $("table-discarder").value });
  on("table-winner", "change", chosen);
  on("table-discarder", "change", chosen);
  on("btn-add-win", "click", flows.addWin);
  on("btn-add-cowinner", "click", () => dispatch({ type: "cowinnerStaged" }));
  on("table-pending", "click", (e) => { const k = attr(e, "data-unstage"); if (k) dispatch({ type: "unstaged", index: parseInt(k, 10) }); });
  for (const key of TABLE_RULES) {
    const control = $("tr-" + key.replace(/_/g, "-"));
    control.addEventListener("change", () => flows.setTableRule(key, control.value));
  }
  on("btn-add-draw", "click", () => flows.addToNight(drawEntry()));
  on("btn-add-false-win", "click", () => { const who = $("table-offender").value; if (who) flows.addToNight(falseWinEntry(who)); });
  on("btn-undo", "click", () => { if (window.confirm(tOf(store.get())("table.confirm_undo"))) flows.undoHand(); });
  on("btn-redo", "click", flows.redoHand);
  // A hand by taps: who, how, the faan (views/quick.js).
  on("btn-quick-win", "click", () => { dispatch({ type: "quickStarted" }); flows.loadDetail(store.get().night.ruleset || store.get().input.ruleset); });
  on("btn-quick-false-win", "click", () => dispatch({ type: "falseWinStarted" }));
  on("btn-quick-back", "click", () => dispatch({ type: "quickBack" }));
  on("btn-quick-cancel", "click", () => dispatch({ type: "quickCancelled" }));
  on("btn-quick-patterns", "click", () => { dispatch({ type: "quickPatterns" }); flows.loadPatterns(); });
  on("btn-quick-send-patterns", "click", () => flows.quickFaan({ patterns: store.get().quick.ticked }));
  on("quick-panel", "click", (e) => {
    const b = e.target.closest("button");
    if (!b || b.disabled) return;
    if (b.hasAttribute("data-quick-player")) dispatch({ type: "quickPlayer", player: b.getAttribute("data-quick-player") });
    else if (b.hasAttribute("data-quick-how")) dispatch({ type: "quickHow", discarder: b.getAttribute("data-quick-how") });
    else if (b.hasAttribute("data-quick-also")) dispatch({ type: "quickAlso", player: b.getAttribute("data-quick-also") });
    else if (b.hasAttribute("data-quick-faan")) flows.quickFaan({ faan: parseInt(b.getAttribute("data-quick-faan"), 10) });
    else if (b.hasAttribute("data-quick-limit")) flows.quickFaan({ limit: true });
    else if (b.hasAttribute("data-quick-tick")) {
      dispatch({ type: "quickTicked", id: b.getAttribute("data-quick-tick"), max: parseInt(b.getAttribute("data-max"), 10) });
      previewTicked(store);
    }
    else if (b.hasAttribute("data-quick-confirm")) flows.quickFalseWin();
  });
  on("btn-house-to-night", "click", flows.houseToNight);
  on("btn-next-game", "click", () => flows.newGame([0, 1, 2, 3].map((i) => $("ng-seat-" + i).value), $("ng-dealer").value));
  on("btn-csv", "click", flows.downloadCsv);
  on("btn-print", "click", () => window.print());
  on("btn-new-night", "click", () => {
    if (store.get().night.hands.length && !window.confirm(tOf(store.get())("table.confirm_new"))) return;
    dispatch({ type: "sharedLeft" });
    dispatch({ type: "nightStarted" });
    dispatch({ type: "tableEmpty" });
  });
  on("btn-table", "click", () => {
    if (store.get().night.hands.length) { flows.run("table", false); return; }
    dispatch({ type: "viewChosen", view: "table" });
    dispatch({ type: "tableEmpty" });
  });
  wireShare();
  wireMode();
  on("calc", "keydown", enterPressed);
  for (const b of document.querySelectorAll("button[data-lang]")) {
    b.addEventListener("click", async () => {
      const l = b.getAttribute("data-lang");
      storeLang(l);
      await loadLang(l);
      dispatch({ type: "langChosen", lang: l });
    });
  }
  // In-page links to a view (the ruleset's notes, back to the score, a compared ruleset).
  document.addEventListener("click", (e) => {
    const a = e.target.closest("a[href^='?']");
    if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    const next = fromQuery(a.getAttribute("href"));
    dispatch({ type: "linkFollowed", view: next.view, ruleset: next.ruleset });
    flows.loadDetail(next.ruleset);
    flows.run(next.view, false);
    $("output").scrollIntoView({ block: "start" });
  });
}

// The night or the calculator: which cards lead the page (style.css hides
// the hand's own sections at night). Kept, so a reload stays where it was.
const MODE_KEY = "faan.mode";

function showNight() {
  if (store.get().night.hands.length) { flows.run("table", false); return; }
  dispatch({ type: "viewChosen", view: "table" });
  dispatch({ type: "tableEmpty" });
}

function setMode(mode) {
  document.body.setAttribute("data-mode", mode);
  for (const b of document.querySelectorAll("#mode-switch [data-mode]")) b.setAttribute("aria-pressed", String(b.getAttribute("data-mode") === mode));
  try { window.localStorage.setItem(MODE_KEY, mode); } catch (e) { /* private mode: not remembered */ }
}

function storedMode() {
  try { return window.localStorage.getItem(MODE_KEY) === "night" ? "night" : "calc"; } catch (e) { return "calc"; }
}

function wireMode() {
  for (const b of document.querySelectorAll("#mode-switch [data-mode]")) {
    b.addEventListener("click", () => {
      const mode = b.getAttribute("data-mode");
      setMode(mode);
      if (mode === "night") showNight();
      window.scrollTo(0, 0);
    });
  }
}

// Enter in a field does that field's own action, never the form's: in the
// Table card it commits the field (a name, the stake, the multiplier) where
// it stands, in the discard card it asks which tile to discard. Only the
// hand's own fields score.
function enterPressed(e) {
  if (e.key !== "Enter" || e.isComposing) return;
  const t = e.target;
  if (!(t instanceof HTMLInputElement)) return;
  if (t.closest("#table-section")) {
    e.preventDefault();
    t.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (t.closest("#discard-section")) {
    e.preventDefault();
    if (discardChecked(true)) flows.run("discard", true);
  }
}

// The share box: make the table, pick the link, copy or share it, settle a conflict.
function wireShare() {
  on("btn-share", "click", sync.share);
  on("btn-share-view", "click", () => dispatch({ type: "shareLinkShown", which: "view" }));
  on("btn-share-score", "click", () => dispatch({ type: "shareLinkShown", which: "score" }));
  // What the copy did, said where the button is (a status line).
  on("btn-share-copy", "click", async () => {
    const T = tOf(store.get());
    let copied;
    try { await navigator.clipboard.writeText($("share-url").value); copied = true; } catch (e) { $("share-url").select(); copied = document.execCommand("copy"); }
    $("share-copied").textContent = T(copied ? "share.copied" : "share.copy_failed");
  });
  on("btn-share-native", "click", () => navigator.share({ title: document.title, url: $("share-url").value }).catch(() => {}));
  on("btn-conflict-keep", "click", () => sync.resolve("new"));
  on("btn-conflict-all", "click", () => sync.resolve("all"));
  on("btn-conflict-drop", "click", () => sync.resolve(false));
}

async function init() {
  if (!glyphsSupported()) document.body.classList.add("no-glyphs");
  // A scorer's link opens on the night.
  setMode(joinOf(location.hash) ? "night" : storedMode());
  render(store.get());
  wire();
  await flows.loadRulesets();
  // Usable: now the worker may fetch what it keeps (none of it is in the first load).
  import("./offline.js").then((m) => m.watchConnection(store));
  // A scorer's link (/t/{id}#key=..., sent here as #join=): the table's night is this page's.
  const join = joinOf(location.hash);
  if (join) {
    history.replaceState(null, "", urlFor(store.get(), {}));
    const mine = store.get().shared;
    const again = !!mine && mine.id === join.id;
    // The same table opened again is read afresh, so its ruleset and rules are
    // the table's, not this page's; unless hands of this page wait to be sent.
    if (again && mine.queue.length) sync.resume();
    else if (again || !store.get().night.hands.length || window.confirm(tOf(store.get())("share.confirm_join"))) await sync.join(join.id, join.key);
  } else sync.resume();
  // A shared link: its view answers at once where the hand is ready.
  const s = store.get();
  const view = s.input.view;
  const ready = REQUESTS[view].ready(s);
  if (ready) flows.run(view, false);
  else if (s.input.text) flows.auto();
  if (view === "table" && !ready) dispatch({ type: "tableEmpty" });
  // A night kept from before: the coming deal is the server's to say.
  if (view !== "table" && seated(s.night) && s.night.hands.length) flows.refreshTable();
  // A scorer's first screen is the night: its table, not the calculator's answer.
  if (join) showNight();
}

init();
