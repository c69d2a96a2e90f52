// Errors on screen: each beside the control its pointer names, and a summary
// at the top whose items are links to those controls.

import { $, el } from "../dom.js";
import { describeNested, controlLabel } from "../format.js";
import { tOf } from "../state.js";

function byPointer(attr, pointer) {
  let p = pointer;
  while (p) {
    const found = document.querySelector("[" + attr + "='" + p.replace(/'/g, "\\'") + "']");
    if (found) return found;
    p = p.slice(0, p.lastIndexOf("/"));
  }
  return null;
}

/** The control a pointer names: the field's input or select (the hand box for the hand). */
export function controlFor(pointer) {
  if (/^\/hand\/(tiles|melds)/.test(pointer) && !document.querySelector("[data-pointer='" + pointer + "']")) return $("hand-text");
  if (pointer === "/hand/tiles") return $("hand-text");
  const field = byPointer("data-pointer", pointer);
  if (!field) return null;
  if (field.matches("input,select,button")) return field;
  return field.querySelector("input:not([type=hidden]):not([disabled]),select:not([disabled]),button") || field.querySelector("input,select");
}

function clearErrors() {
  $("error-summary").hidden = true;
  $("error-list").textContent = "";
  for (const e of document.querySelectorAll("[data-error-for]")) { e.textContent = ""; e.hidden = true; }
  for (const e of document.querySelectorAll(".has-error")) e.classList.remove("has-error");
  for (const e of document.querySelectorAll("[aria-invalid]")) e.removeAttribute("aria-invalid");
}

/**
 * The problems on screen (`{pointer, key, params}` each) in the player's
 * language. Problems from a button move the focus to the first one's
 * control, once: when they first show.
 */
function renderErrors(state, prev) {
  clearErrors();
  if (!state.errors) return;
  const messages = state.errors.messages;
  const focus = state.errors.focus && (!prev || prev.errors !== state.errors);
  if (!messages.length) return;
  const T = tOf(state);
  // Analysing a hand that is not a win is that view's purpose: its title says "analysed", not "scored".
  $("error-title").textContent = T(state.input.view === "discard" ? "error.title_discard" : state.input.view === "table" ? "error.title_table" : "error.title");
  const list = $("error-list");
  let first = null;
  messages.forEach((m, i) => {
    const text = describeNested(m, T, state.input.context);
    const slot = byPointer("data-error-for", m.pointer || "");
    if (slot) {
      slot.appendChild(el("span", { className: "msg", "data-error-pointer": m.pointer, text }));
      slot.hidden = false;
    }
    const field = byPointer("data-pointer", m.pointer || "");
    if (field) field.classList.add("has-error");
    const control = controlFor(m.pointer || "");
    if (control) {
      control.setAttribute("aria-invalid", "true");
      if (!control.id) control.id = "error-control-" + i;
    }
    if (!first && control) first = control;
    const label = controlLabel(m.pointer, T);
    const item = control
      ? el("a", { href: "#" + control.id, "data-error-pointer": m.pointer, text: T("error.summary_item", { control: label, message: text }) })
      : el("span", { "data-error-pointer": m.pointer, text: T("error.summary_item", { control: label, message: text }) });
    if (control) item.addEventListener("click", (e) => { e.preventDefault(); control.focus(); control.scrollIntoView({ block: "center" }); });
    list.appendChild(el("li", {}, [item]));
  });
  // An import's problems: at the import box only (the summary is the hand's).
  if (state.errors.scope !== "import") $("error-summary").hidden = false;
  if (focus) {
    if (first) { first.focus(); first.scrollIntoView({ block: "center" }); } else $("error-summary").focus();
  }
}

// Last in the list: the slots the other views draw are there by then.
export const errorsView = { deps: (s) => [s.lang, s.errors], render: renderErrors };
