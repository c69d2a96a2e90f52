// The share box in the Table card: "Share this night", then the link to
// watch (or, with "Let others score", the scorer's link with its key) as a
// QR code, copy and the phone's share sheet; the hands waiting to be sent;
// and a conflict with another scorer, with the player's two choices.

import { $, el, fill } from "../dom.js";
import { links } from "../share.js";
import { tOf } from "../state.js";
import { resultText, entryText } from "./table.js";

const SVG = "http://www.w3.org/2000/svg";

// The QR encoder, asked for only once a night is shared (it is off the first load's path).
let encoder = null;
function withEncoder(draw) {
  if (!encoder) encoder = import("../vendor/qrcode.js").then((m) => m.default);
  encoder.then(draw, () => { encoder = null; });
}

/** `text` as a QR code: an SVG of its dark modules, with a quiet zone of four (`qrcode`: the encoder). */
export function qrSvg(qrcode, text, label) {
  const q = qrcode(0, "M");
  q.addData(text);
  q.make();
  const n = q.getModuleCount();
  const size = n + 8;
  let d = "";
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (q.isDark(r, c)) d += "M" + (c + 4) + " " + (r + 4) + "h1v1h-1z";
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", "0 0 " + size + " " + size);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", label);
  svg.setAttribute("data-modules", String(n));
  svg.setAttribute("shape-rendering", "crispEdges");
  const bg = document.createElementNS(SVG, "rect");
  bg.setAttribute("width", String(size));
  bg.setAttribute("height", String(size));
  bg.setAttribute("fill", "#fff");
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", "#000");
  svg.appendChild(bg);
  svg.appendChild(path);
  return svg;
}

function renderShare(state) {
  const T = tOf(state);
  const sh = state.shared;
  $("btn-share").hidden = !!sh;
  $("share-shown").hidden = !sh;
  const box = $("share-box");
  box.setAttribute("data-shared", sh ? sh.id : "");
  box.setAttribute("data-version", sh ? String(sh.version) : "");
  box.setAttribute("data-waiting", sh ? String(sh.queue.length) : "0");
  box.setAttribute("data-offline", String(!!(sh && sh.offline)));
  box.setAttribute("data-conflict", String(!!(sh && sh.conflict)));
  // A shared night's rules are the table's: changed only by a hand that says so.
  for (const c of $("table-rules").querySelectorAll("select, input")) c.disabled = !!sh;
  if (!sh) return;
  const both = links(location.origin, sh);
  const url = sh.shown === "score" ? both.score : both.view;
  $("btn-share-view").setAttribute("aria-pressed", String(sh.shown !== "score"));
  $("btn-share-score").setAttribute("aria-pressed", String(sh.shown === "score"));
  $("share-hint").textContent = T(sh.shown === "score" ? "share.score_hint" : "share.view_hint");
  const field = $("share-url");
  field.value = url;
  field.setAttribute("data-view", both.view);
  if ($("share-qr").getAttribute("data-url") !== url) {
    $("share-qr").setAttribute("data-url", url);
    const label = T(sh.shown === "score" ? "share.qr_score" : "share.qr_view");
    withEncoder((qrcode) => { if ($("share-qr").getAttribute("data-url") === url) fill($("share-qr"), [qrSvg(qrcode, url, label)]); });
  }
  $("btn-share-native").hidden = typeof navigator.share !== "function";
  const n = sh.queue.length;
  $("share-state").textContent = sh.conflict ? T("share.conflict") : n ? T(sh.offline ? "share.offline" : "share.sending", { n }) : T("share.in_sync", { v: sh.version });
  $("share-state").setAttribute("data-state", sh.conflict ? "conflict" : n ? (sh.offline ? "offline" : "sending") : "ok");
  const c = sh.conflict;
  $("share-conflict").hidden = !c;
  if (!c) return;
  const players = state.night.players.map((p) => p.trim());
  // Theirs, as the server answered them; mine, as entered here, each said to be equal to one of theirs where it is.
  $("share-conflict-text").textContent = T("share.conflict_theirs", { n: c.theirs.length });
  fill($("share-conflict-theirs"), c.theirs.map((h) => el("li", { "data-hand": String(h.index) }, [
    (h.number != null ? T("share.hand_no", { n: h.number }) + " " : "") + resultText(h, T) + (h.deltas ? " · " + players.map((p) => p + " " + (h.deltas[p] > 0 ? "+" : "") + h.deltas[p]).join(", ") : "")
  ])));
  $("share-conflict-mine").textContent = T("share.conflict_mine", { n: c.mine.length });
  fill($("share-conflict-mine-list"), c.mine.map((h, i) => {
    const twin = c.same[i] >= 0 ? c.theirs[c.same[i]] : null;
    return el("li", { "data-mine": String(i), "data-same": twin ? String(twin.index) : null }, [
      entryText(h, T) + (twin ? " — " + T("share.same_as", { n: twin.number != null ? twin.number : twin.index + 1 }) : "")
    ]);
  }));
  const fresh = c.same.filter((k) => k < 0).length;
  const twins = c.mine.length - fresh;
  // Never twice by default: the first choice leaves out my hands equal to theirs.
  $("btn-conflict-keep").textContent = twins ? (fresh ? T("share.keep_new", { n: fresh, same: twins }) : T("share.keep_theirs_same", { n: twins })) : T("share.keep_mine");
  $("btn-conflict-all").hidden = !twins;
  $("btn-conflict-all").textContent = T("share.keep_all", { n: c.mine.length });
}

export const shareView = { deps: (s) => [s.lang, s.shared, s.night.players], render: renderShare };
