// What the page asks the server, and when. Each flow reads the store, calls
// the API (api.js) and dispatches what came back (state.js); nothing here
// draws. A change of the inputs is rescored after a short pause, and only
// when the hand is ready for the view; only the latest request's answer
// counts (api.js `Latest`).

import { call, isAbort, Latest, saveCsv } from "./api.js";
import { $ } from "./dom.js";
import { localErrors, mapProblem } from "./format.js";
import { docPointer, houseFromDocument, importProblems } from "./custom.js";
import { ledgerMessages, seated, isStarted, nightRules, tableRuleValue, rulesEntry, falseWinEntry, ledgerRequest, newGameEntry, seatingProblems } from "./ledger.js";
import { handOf, compareDocument, catalogueOf, previewReady, winProblems, winOf, nightWith, quickEntry, houseChanges, tOf, tableDeal } from "./state.js";
import { REQUESTS, requestKey, previewBody } from "./requests.js";

const DEBOUNCE_MS = 250;

const asDocument = (messages) => messages.map((m) => ({ ...m, pointer: docPointer(m.pointer) }));

export function createFlows(store) {
  const get = store.get;
  const dispatch = store.dispatch;
  const latest = new Latest();
  const previewLatest = new Latest();
  let timer = 0;
  // The shared night's requests (sync.js), once the page has them.
  let shared = null;

  // Problems shown: a rescore pending or in flight would clear them when it answers.
  store.subscribe((s, prev) => {
    if (s.errors && s.errors !== prev.errors) { clearTimeout(timer); latest.cancel(); }
  });

  /** A change from the player: dispatched, and rescored after a pause when the inputs moved. */
  function act(action) {
    const prev = get();
    const next = dispatch(action);
    if (next.input !== prev.input) schedule();
    return next;
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(auto, DEBOUNCE_MS);
  }

  function cancel() {
    clearTimeout(timer);
    latest.cancel();
  }

  // The rescore after typing: only when the hand is ready for the view; the
  // page's own checks show at once, without moving the focus.
  function auto() {
    const s = get();
    const id = s.input.view;
    const r = REQUESTS[id];
    const local = r.hand ? localErrors(handOf(s), id, false) : [];
    if (local.length) { latest.cancel(); dispatch({ type: "problems", messages: local, focus: false }); return; }
    // The table's request does not hang on the hand box: typing the next hand leaves it be.
    // The next hand is scored beside it as soon as it is complete and its winner chosen.
    if (!r.hand && !r.get && s.shown && s.shown.view === id && s.shown.key === requestKey(s, id)) { runPreview(); return; }
    if (id === "table" && !r.ready(s)) { runPreview(); return; }
    if (r.ready(s)) { run(id, false); return; }
    latest.cancel();
    dispatch({ type: "waiting" });
  }

  /**
   * Sends the view's request; `submit` (a button): the page's checks first,
   * focus to the first error. `pending` (the table): a night to send in place
   * of the stored one, kept only when the server answers it; `redo`: that
   * night is the last hand undone, added again.
   */
  async function run(view, submit, pending, redo) {
    clearTimeout(timer);
    const r = REQUESTS[view];
    let s = get();
    // The winners staged before this hand: the calculator's is the next one.
    const staged = s.night.pending.length;
    if (s.input.view !== view) s = dispatch({ type: "viewChosen", view });
    if (r.hand) {
      const local = localErrors(handOf(s), view, submit);
      if (local.length) { latest.cancel(); dispatch({ type: "problems", messages: local, focus: submit }); return; }
    }
    const body = r.get ? undefined : r.body(s, pending);
    const ctx = { ...s.input.context };
    const sentDocument = view === "compare" ? compareDocument(s) : null;
    const { seq, signal } = latest.next();
    dispatch({ type: "requested", loadingKey: r.loadingKey });
    let res;
    try {
      res = r.get ? await call("GET", r.pathFor(s), undefined, signal) : await call("POST", r.path, body, signal);
    } catch (e) {
      if (isAbort(e) || !latest.isLatest(seq)) return;
      dispatch({ type: "unreachable" });
      // A hand by taps not kept: back to its last tap, to send again.
      if (pending) dispatch({ type: "quickRefused" });
      return;
    }
    // A newer request was sent meanwhile: this answer is out of date.
    if (!latest.isLatest(seq)) return;
    if (!res.ok) {
      let messages = asDocument(mapProblem(res.status, res.json));
      // A refused hand is not kept: the table on screen stays as it was.
      if (pending) messages = ledgerMessages(messages, pending.hands.length - 1, staged);
      // A win entered by taps: its problems belong to the taps' panel.
      const last = pending && pending.hands[pending.hands.length - 1];
      if (last && (last.winners || []).some((w) => w.declared)) messages = messages.map((m) => (/^\/(table|players|house_rules)/.test(m.pointer || "") ? m : { ...m, pointer: "/table/quick" }));
      dispatch({ type: "refused", messages, focus: submit, keepShown: !!pending });
      if (pending) dispatch({ type: "quickRefused" });
      return;
    }
    const now = pending ? { ...get(), night: pending } : get();
    dispatch({ type: "answered", view, res: res.json, ctx, key: requestKey(now, view), status: r.done(now, res.json), night: pending || null, document: sentDocument, chances: body && body.chances, seq, redo: !!(pending && redo) });
    if (view === "table") runPreview();
    if (submit && window.matchMedia && window.matchMedia("(max-width: 899px)").matches) $("output").scrollIntoView({ block: "start" });
  }

  // In the Table view the next hand is scored as it is typed (POST /v1/score),
  // its result shown above the night, once it is complete and its winner chosen.
  async function runPreview() {
    const s = get();
    if (!previewReady(s)) { previewLatest.cancel(); dispatch({ type: "previewHidden" }); return; }
    const body = previewBody(s);
    const key = JSON.stringify(body);
    if (s.preview && s.preview.key === key) return;
    const ctx = { ...s.input.context };
    const { seq, signal } = previewLatest.next();
    let res;
    try {
      res = await call("POST", "/v1/score", body, signal);
    } catch (e) {
      if (isAbort(e) || !previewLatest.isLatest(seq)) return;
      dispatch({ type: "unreachable" });
      return;
    }
    // Out of date, or the hand is no longer the coming one (added, staged, another view).
    if (!previewLatest.isLatest(seq) || !previewReady(get())) return;
    if (!res.ok) { dispatch({ type: "previewRefused", messages: mapProblem(res.status, res.json) }); return; }
    dispatch({ type: "previewed", res: res.json, ctx, key, name: REQUESTS.score.done(get(), res.json).params.name, seq });
  }

  // The coming deal without showing the table (another view is on screen).
  function refreshTable() {
    call("POST", REQUESTS.table.path, REQUESTS.table.body(get())).then((r) => {
      if (r.ok && r.json) dispatch({ type: "tableRefreshed", answer: r.json });
    }, () => {});
  }

  /** Adds a hand to the night: sent with the others, kept once the server answers. */
  function addToNight(entry) {
    const r = nightWith(get(), entry);
    if (r.problems) { dispatch({ type: "problems", messages: r.problems, focus: true }); dispatch({ type: "quickRefused" }); return; }
    // A shared night's hands go to its table (sync.js).
    if (get().shared && shared) { shared.add(entry, r.night); return; }
    run("table", true, r.night);
  }

  function addWin() {
    // A rescore still waiting for the typing to pause would answer after
    // this hand is added, over the table's refusal of it.
    clearTimeout(timer);
    const problems = winProblems(get());
    if (!problems) return;
    if (problems.length) { dispatch({ type: "problems", messages: problems, focus: true }); return; }
    addToNight(winOf(dispatch({ type: "winSeated" })));
  }

  function undoHand() {
    if (!get().night.hands.length) return;
    if (get().shared && shared) { shared.undo(); return; }
    const s = dispatch({ type: "handUndone" });
    if (s.night.hands.length) run("table", true);
    else dispatch({ type: "tableEmpty" });
  }

  // The hand undone last, added again.
  async function redoHand() {
    const undone = get().undone;
    if (!undone.length) return;
    const r = nightWith(get(), undone[undone.length - 1]);
    if (r.problems) { dispatch({ type: "problems", messages: r.problems, focus: true }); return; }
    await run("table", true, r.night, true);
  }

  /** A faan tapped (`{faan}`, `{limit: true}` or `{patterns}`): the win sent once its last winner is counted. */
  function quickFaan(value) {
    const s = dispatch({ type: "quickFaan", ...value });
    const entry = quickEntry(s);
    if (entry) addToNight(entry);
  }

  /** The false win entered by taps, confirmed. */
  function quickFalseWin() {
    const q = get().quick;
    if (q && q.kind === "false_win" && q.step === "confirm" && q.offender) addToNight(falseWinEntry(q.offender));
  }

  // A change of rules during a night: asked, then a hand of its own from the next hand on.
  function changeRules(changes) {
    if (!Object.keys(changes).length) return;
    if (!window.confirm(tOf(get())("table.confirm_rules"))) { dispatch({ type: "ruleChangeDeclined" }); return; }
    addToNight(rulesEntry(changes));
  }

  /** The House rules panel's rules for the night, from the next hand on. */
  function houseToNight() {
    changeRules(houseChanges(get()));
  }

  // The night as the server writes it in CSV for people, in the page's
  // language: a shared night's table as the server holds it (GET), else
  // the night sent whole (POST /v1/ledger, Accept: text/csv); saved as a file.
  async function downloadCsv() {
    const s = get();
    if (!seated(s.night) || !s.night.hands.length) return;
    const ok = s.shared
      ? await saveCsv("GET", "/v1/tables/" + s.shared.id, undefined, s.lang)
      : await saveCsv("POST", REQUESTS.table.path, ledgerRequest(s.night, s.input), s.lang);
    if (!ok) dispatch({ type: "unreachable" });
  }

  /** The next game once the north round is over: `players` in their new seats (or none: the seats stay), `dealer` first. */
  function newGame(players, dealer) {
    const deal = tableDeal(get());
    const now = deal ? ["east", "south", "west", "north"].map((w) => deal.seats[w]) : [];
    // Seats as they are: none sent (the ledger keeps them).
    const seats = players && players.every(Boolean) && players.join("\n") !== now.join("\n") ? players : null;
    const problems = seats ? seatingProblems(get().night, seats) : [];
    if (problems.length) { dispatch({ type: "problems", messages: problems, focus: true }); return; }
    addToNight(newGameEntry(seats, dealer));
  }

  // A table rule changed: the night retallied (the rules change the money and the coming deal).
  function setTableRule(key, raw) {
    if (isStarted(get().night)) {
      const v = tableRuleValue(key, raw);
      if (v.error) { dispatch({ type: "problems", messages: [v.error], focus: false }); return; }
      const now = nightRules(get().night, get().tableAnswer)[key];
      if (v.value === now) return;
      changeRules({ [key]: v.value === undefined ? null : v.value });
      return;
    }
    const prev = get();
    const s = dispatch({ type: "tableRuleSet", key, raw });
    // The next hand's preview follows the stake and the other table rules at once.
    if (s.night !== prev.night && s.input.view === "table") runPreview();
    if (s.night === prev.night || !seated(s.night) || !s.night.hands.length) return;
    if (s.input.view === "table") run("table", false);
    else refreshTable();
  }

  // ------------------------------------------------ what the server holds

  async function loadRulesets() {
    try {
      const r = await call("GET", "/v1/rulesets");
      dispatch({ type: "rulesetsLoaded", rulesets: (r.json && r.json.rulesets) || [] });
    } catch (e) {
      dispatch({ type: "rulesetsFailed" });
    }
    // Compare with the page's rules as their own ruleset needs the chart (and the patterns) first.
    if (get().input.compareCustom) await Promise.all([loadDetail(get().input.ruleset), loadPatterns()]);
    else loadDetail(get().input.ruleset);
  }

  // Every pattern and condition (GET /v1/patterns), once; without it the
  // panel lists the patterns of the charts it has.
  async function loadPatterns() {
    if (get().server.patterns) return;
    try {
      const r = await call("GET", "/v1/patterns");
      if (r.ok && r.json && Array.isArray(r.json.patterns)) dispatch({ type: "patternsLoaded", table: r.json });
    } catch (e) { /* the charts' patterns only */ }
  }

  // A ruleset's payments, notes and patterns, for its summary and the panel.
  async function loadDetail(id) {
    const s = get();
    if (s.server.details[id] || !s.server.info[id]) return;
    try {
      const r = await call("GET", "/v1/rulesets/" + encodeURIComponent(id));
      if (r.ok && r.json) dispatch({ type: "detailLoaded", id, detail: r.json });
    } catch (e) { /* the summary keeps its first line */ }
  }

  // The panel opened: every ruleset's chart (each pattern's values and contains) and the pattern table.
  function openHousePanel() {
    return Promise.all(get().server.rulesets.map((r) => loadDetail(r.id)).concat([loadPatterns()]));
  }

  // ------------------------------------------------ the ruleset document

  /** Shows the document; with `check`, asks the server whether it holds. */
  async function showDocument(check) {
    await Promise.all([loadDetail(get().input.ruleset), loadPatterns()]);
    const doc = dispatch({ type: "documentShown" }).doc.document;
    if (!doc || !check) return;
    try {
      const r = await call("POST", "/v1/rulesets/validate", { ruleset: doc });
      if (r.ok && r.json) dispatch({ type: "documentChecked", hash: String(r.json.ruleset_hash || "") });
      else dispatch({ type: "documentChecked", problems: asDocument(mapProblem(r.status, r.json)) });
    } catch (e) {
      dispatch({ type: "documentUnreachable" });
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
    dispatch({ type: "documentCopied" });
  }

  // A pasted or uploaded document: checked by the page, then by the server
  // (POST /v1/rulesets/validate), before anything is set.
  async function importDocument(text) {
    dispatch({ type: "importStarted" });
    const refuse = (messages) => dispatch({ type: "importRefused", messages });
    const at = (key, params) => refuse([{ pointer: "/ruleset_document", key, params }]);
    let doc;
    try { doc = JSON.parse(text); } catch (e) { at("house.import_not_json"); return; }
    if (doc && typeof doc.extends === "string") await loadDetail(doc.extends);
    await loadPatterns();
    const s = get();
    const cat = catalogueOf(s);
    const r = houseFromDocument(doc, doc && s.server.details[doc.extends], cat);
    if (r.problem) { at(r.problem); return; }
    // Only patterns GET /v1/patterns lists (the page's catalogue from it).
    const mine = importProblems(doc, s.server.details[doc.extends], s.server.patterns ? cat : null);
    if (mine.length) { refuse(mine); return; }
    let v;
    try { v = await call("POST", "/v1/rulesets/validate", { ruleset: doc }); } catch (e) { at("status.unreachable"); return; }
    if (!v.ok) { refuse(mapProblem(v.status, v.json).map((m) => ({ ...m, pointer: "/ruleset_document" }))); return; }
    act({ type: "imported", result: r });
  }

  const setShared = (sync) => { shared = sync; };

  return { setShared, newGame, act, schedule, cancel, auto, run, runPreview, refreshTable, addToNight, addWin, undoHand, redoHand, quickFaan, quickFalseWin, houseToNight, downloadCsv, setTableRule, loadRulesets, loadDetail, loadPatterns, openHousePanel, showDocument, copyDocument, importDocument };
}
