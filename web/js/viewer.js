// The viewer's page (viewer.html at /t/{id} and /g/{id}): the id from the
// path; a night followed live through its event stream (EventSource,
// which resumes with Last-Event-ID; opened again after the server closed
// it), a group read once. The same store as the calculator (state.js);
// the views in views/viewer.js.

import { $, renderer } from "./dom.js";
import { call, followTable, saveCsv } from "./api.js";
import { detectLang, storedLang, storeLang, loadLang } from "./i18n.js";
import { createStore, initialState } from "./state.js";
import { linkOf, emptyViewer } from "./share.js";
import { pageViews } from "./views/page.js";
import { viewerViews } from "./views/viewer.js";

// How long to wait before reading a group again.
const RETRY_MS = 2000;

const link = linkOf(location.pathname, location.hash);
// The scorer's link: scored in the calculator; the key stays in the fragment.
function toScorer() {
  const l = linkOf(location.pathname, location.hash);
  if (l && l.kind === "table" && l.key) location.replace("/?view=table#join=" + l.id + "&key=" + l.key);
}
toScorer();
// The link with the key opened over the view link: the same page, only the fragment changed.
window.addEventListener("hashchange", toScorer);

const VIEWS = [pageViews.language].concat(viewerViews);
const render = renderer(VIEWS).render;

const lang = detectLang(storedLang(), navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language]);
await loadLang(lang);
const store = createStore(initialState({ lang, viewer: emptyViewer(link) }));
store.subscribe(render);
const { dispatch } = store;

function follow() {
  followTable(link.id, {
    table: (table) => dispatch({ type: "viewerTable", table }),
    change: (kind, change) => dispatch({ type: "viewerChange", kind, change }),
    gone: () => dispatch({ type: "viewerDeleted" }),
    connection: (connection) => { if (!store.get().viewer.gone) dispatch({ type: "viewerConnection", connection }); }
  });
}

let timer = 0;

async function loadGroup() {
  clearTimeout(timer);
  try {
    const r = await call("GET", "/v1/groups/" + link.id);
    if (r.ok && r.json) { dispatch({ type: "groupLoaded", group: r.json }); return; }
    dispatch({ type: "viewerFailed", status: r.status });
    if (r.status === 404) return;
  } catch (e) {
    dispatch({ type: "viewerFailed", status: 0 });
  }
  timer = setTimeout(loadGroup, RETRY_MS);
}

render(store.get());
$("v-csv").addEventListener("click", () => saveCsv("GET", "/v1/tables/" + link.id, undefined, store.get().lang));
for (const b of document.querySelectorAll("button[data-lang]")) {
  b.addEventListener("click", async () => { storeLang(b.getAttribute("data-lang")); await loadLang(b.getAttribute("data-lang")); dispatch({ type: "langChosen", lang: b.getAttribute("data-lang") }); });
}
window.addEventListener("offline", () => dispatch({ type: "viewerConnection", connection: "offline" }));
if (!link) dispatch({ type: "viewerFailed", status: 404 });
else if (link.kind === "group") { loadGroup(); window.addEventListener("online", loadGroup); }
else if (!link.key) follow();
$("viewer").setAttribute("data-kind", link ? link.kind : "");
