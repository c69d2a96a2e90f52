// DOM helpers shared by the views.

import { glyph, flowerGlyph, suitOf, numOf } from "./tiles.js";
import { tileName } from "./format.js";

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs, children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v == null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "className") e.className = v;
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children || []) {
    if (c != null && c !== "") e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return e;
}

/**
 * The page's drawing: `views` in order, each `{deps(state), render(state,
 * prev)}` drawn when one of its `deps` changed (`prev`: the state it last
 * drew). `render` draws a state; `forget` has every view drawn afresh next.
 */
export function renderer(views) {
  const drawn = new Map();
  return {
    render(state) {
      for (const v of views) {
        const deps = v.deps(state);
        const last = drawn.get(v);
        if (last && deps.every((x, i) => x === last.deps[i])) continue;
        v.render(state, last && last.state);
        drawn.set(v, { deps, state });
      }
    },
    forget() { drawn.clear(); }
  };
}

/** Replaces an element's children. */
export function fill(node, children) {
  node.textContent = "";
  for (const c of children) if (c) node.appendChild(c);
  return node;
}

/**
 * A tile: its Unicode glyph (a drawn face where the font lacks one) with
 * the MPSZ code underneath in English; the Chinese page names its tiles
 * and shows no code (style.css), the code being what a box takes typed.
 */
export function tileFace(t, T, opts) {
  const o = opts || {};
  const s = suitOf(t), n = numOf(t);
  const name = tileName(t, T);
  const attrs = {
    className: "tile suit-" + s + (s === "z" ? " z" + n : "") + (o.mini ? " mini" : "") + (o.className ? " " + o.className : ""),
    "data-tile": t,
    title: T.lang === "zh" ? name : name + " (" + t + ")",
    ...(o.attrs || {})
  };
  if (o.tag === "button") attrs.type = "button";
  const sub = s === "z" ? T(n <= 4 ? "face.wind" : "face.dragon") : T("face." + s);
  const main = s === "z" ? T("face." + t) : String(n);
  return el(o.tag || "span", attrs, [
    el("span", { className: "glyph", "aria-hidden": "true", text: glyph(t) }),
    el("span", { className: "face", "aria-hidden": "true" }, [
      el("span", { className: "face-main", text: main }),
      el("span", { className: "face-sub", text: sub })
    ]),
    el("span", { className: "code", text: t })
  ]);
}

export function flowerFace(id, T, pressed) {
  return el("button", {
    type: "button", className: "flower" + (id.charAt(0) === "S" ? " season" : ""), "data-flower": id,
    "aria-pressed": pressed ? "true" : "false", title: T("flower." + id), "aria-label": T.lang === "zh" ? T("flower." + id) : id + " " + T("flower." + id)
  }, [
    el("span", { className: "glyph", "aria-hidden": "true", text: flowerGlyph(id) }),
    el("span", { className: "face", "aria-hidden": "true" }, [el("span", { className: "face-main", text: T("flower_short." + id) })]),
    el("span", { className: "code", "aria-hidden": "true", text: id })
  ]);
}

/** A set of tiles shown small (a meld, a reading's set). */
export function tileGroup(tiles, T, cls) {
  return el("span", { className: "tile-group" + (cls ? " " + cls : ""), "data-set": tiles.join("") },
    tiles.map((t) => tileFace(t, T, { mini: true })));
}

/** Text with <b>…</b> from the page's own string tables (never from the network). */
export function richText(node, text) {
  node.textContent = "";
  const parts = String(text).split(/(<b>.*?<\/b>)/);
  for (const part of parts) {
    const m = /^<b>(.*)<\/b>$/.exec(part);
    node.appendChild(m ? el("b", { text: m[1] }) : document.createTextNode(part));
  }
  return node;
}

// Does this browser have a font for the mahjong block? Compare a glyph's
// pixels with those of an unassigned code point (the "no glyph" box).
export function glyphsSupported() {
  try {
    const c = document.createElement("canvas");
    c.width = c.height = 40;
    const g = c.getContext("2d");
    if (!g) return false;
    const draw = (ch) => {
      g.clearRect(0, 0, 40, 40);
      g.font = "32px sans-serif";
      g.textBaseline = "top";
      g.fillStyle = "#000";
      g.fillText(ch, 2, 2);
      return g.getImageData(0, 0, 40, 40).data.join(",");
    };
    const none = draw(String.fromCodePoint(0x1fbff));
    const blank = draw(" ");
    return [0x1f007, 0x1f019, 0x1f010, 0x1f000].every((cp) => {
      const p = draw(String.fromCodePoint(cp));
      return p !== none && p !== blank;
    });
  } catch (e) {
    return false;
  }
}
