// The page around the views: its words in the chosen language, which
// answer section shows, the status line and the phone's strip, the note on
// an answer out of date, and the ruleset document box.

import { $, richText } from "../dom.js";
import { SEATS } from "../tiles.js";
import { describe, countMessage } from "../format.js";
import { documentFileName } from "../custom.js";
import { tOf, handOf, seatName, offlineNote } from "../state.js";
import { REQUESTS, requestKey, sectionOf } from "../requests.js";

const SECTIONS = ["result", "compare", "waits", "rules", "table", "discard"];

/** The words written in the HTML (`data-i18n`, `data-i18n-html`, `data-i18n-attr`) and the language switch. */
function renderLanguage(state) {
  const T = tOf(state);
  const lang = state.lang;
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
  for (const b of document.querySelectorAll("button[data-lang]")) b.setAttribute("aria-pressed", String(b.getAttribute("data-lang") === lang));
  // How to type a hand is in tile codes: shown in English, on request in Chinese.
  const notation = document.getElementById("notation");
  if (notation) notation.open = lang !== "zh";
}

// The answer's section; in the Table view the score section shows the next hand, once scored.
function renderSections(state) {
  const shown = state.shown ? sectionOf(state.shown.view) : null;
  const preview = state.input.view === "table";
  for (const s of SECTIONS) $(s).hidden = s === "result" && preview ? !state.preview : s !== shown;
  $("result").setAttribute("data-preview", String(preview && !!state.preview));
}

// Marks for whoever waits on the page (the browser tests): an answer drawn.
function renderMarks(state) {
  if (state.shown) document.body.setAttribute("data-answered", String(state.shown.seq));
  if (state.preview) document.body.setAttribute("data-previewed", String(state.preview.seq));
}

function renderStatus(state) {
  const st = state.status;
  const node = $("status");
  node.setAttribute("data-state", st.state);
  node.textContent = describe({ key: st.key, params: st.params }, tOf(state));
}

// On a phone the answer is far below the palette: a one-line strip under
// it shows the total and payments, or the status when something is wrong
// (cannot reach the server, problems), where the player is looking.
function renderStrip(state) {
  const strip = $("phone-strip");
  const T = tOf(state);
  const st = state.status;
  const shown = state.input.view === "table" ? state.preview : state.shown && state.shown.view === "score" ? state.shown : null;
  strip.setAttribute("data-state", st.state);
  if (st.state !== "ok" || !shown) {
    strip.hidden = st.state !== "error";
    strip.textContent = st.state === "error" ? describe({ key: st.key, params: st.params }, T) : "";
    return;
  }
  const res = shown.res;
  const signed = (n) => (n > 0 ? "+" + n : String(n));
  strip.hidden = false;
  // With a stake, each payment in money too.
  const money = res.money && res.money.payments ? res.money.payments : null;
  const cash = (s) => (money && money[s] != null ? " (" + (money[s] < 0 ? "-$" : "$") + Math.abs(money[s]).toFixed(2) + ")" : "");
  strip.textContent = [T("strip.score", { faan: res.total_faan })].concat(SEATS.map((s) => (seatName(state, s) || T("seat." + s)) + " " + signed(res.payments[s]) + cash(s))).join(" · ");
}

// The answer on screen dimmed with a note once the inputs have moved on.
function renderStale(state) {
  const shown = state.shown;
  // A shared night's table is the server's, followed live; hands waiting here show as unsent rows.
  const live = !!shown && shown.view === "table" && !!state.shared;
  const stale = !!shown && !live && (shown.view !== state.input.view || shown.key !== requestKey(state, shown.view));
  $("output").setAttribute("data-stale", String(stale));
  const note = $("stale-note");
  note.hidden = !stale;
  if (!stale) { note.textContent = ""; return; }
  const T = tOf(state);
  const d = handOf(state);
  let tail;
  // Problems on screen (the page's or the server's): nothing is rescored until they are fixed.
  if (d.errors.length || d.over.length || (state.errors && state.errors.scope !== "import")) tail = T("stale.fix");
  else if (!REQUESTS[state.input.view].ready(state)) {
    const cm = countMessage(d);
    tail = T("stale.incomplete", { why: cm.more ? describe(cm.more, T) : describe(cm, T) });
  } else tail = T("stale.rescoring");
  note.textContent = T("stale.note") + " " + tail;
}

// Offline: what still works, said while the server is out of reach (empty, and so not shown, while it answers).
function renderOffline(state) {
  const key = offlineNote(state.connection);
  const note = $("offline-note");
  note.textContent = key ? tOf(state)(key) : "";
  note.setAttribute("data-engine", state.connection.local ? "local" : "server");
}

/** The ruleset document: its text, download and copy while shown, and its status line. */
function renderDocument(state) {
  const doc = state.doc;
  const text = doc.document ? JSON.stringify(doc.document, null, 2) : "";
  $("hr-export-text").value = text;
  for (const id of ["hr-export-text", "hr-download", "btn-copy-doc"]) $(id).hidden = !doc.document;
  if (doc.document) {
    $("hr-download").href = "data:application/json;charset=utf-8," + encodeURIComponent(text + "\n");
    $("hr-download").setAttribute("download", documentFileName(doc.document));
  }
  const status = $("hr-export-status");
  status.textContent = doc.key ? tOf(state)(doc.key, doc.params) : "";
  if (doc.state) status.setAttribute("data-state", doc.state);
  if (doc.hash) status.setAttribute("data-hash", doc.hash); else status.removeAttribute("data-hash");
}

export const pageViews = {
  language: { deps: (s) => [s.lang], render: renderLanguage },
  sections: { deps: (s) => [s.shown, s.preview, s.input.view], render: renderSections },
  marks: { deps: (s) => [s.shown, s.preview], render: renderMarks },
  status: { deps: (s) => [s.lang, s.status], render: renderStatus },
  strip: { deps: (s) => [s.lang, s.status, s.shown, s.preview, s.input.view, s.night, s.tableAnswer], render: renderStrip },
  stale: { deps: (s) => [s.lang, s.shown, s.input, s.errors, s.night, s.server, s.tableWinner, s.shared], render: renderStale },
  document: { deps: (s) => [s.lang, s.doc], render: renderDocument },
  offline: { deps: (s) => [s.lang, s.connection], render: renderOffline }
};
