// The hand box's notation: the concealed tiles and the declared melds in one
// line of text. Pure (no DOM).
//
//   123m456p 55s      concealed tiles in MPSZ (digits share the suit letter
//                     after them; whitespace is ignored), or Unicode tiles
//   [777z] [123m]     a declared (exposed) pung, chow or kong: its tiles in
//   [1111s]           square brackets; the kind follows from the tiles
//   (1111s)           a concealed kong, in round brackets
//   [1111s+]          an added kong (a pung promoted with the fourth tile)
//   pung 7z           the same in words: pung/pong, chow/chi (its lowest tile
//   chow 1m           or all three), kong, concealed kong, added kong; or
//   碰 7z  暗槓 1s     碰, 吃/上, 槓, 暗槓, 加槓
//
// The order of the concealed tiles is the order they were written: the last
// one written is the winning tile (see state.js).

import { fromGlyph, suitOf, numOf, toMpsz, groupMpsz } from "./tiles.js";

const WORDS = {
  pung: { kind: "pung" }, pong: { kind: "pung" }, "碰": { kind: "pung" },
  chow: { kind: "chow" }, chi: { kind: "chow" }, "吃": { kind: "chow" }, "上": { kind: "chow" },
  kong: { kind: "kong" }, "槓": { kind: "kong" }, "杠": { kind: "kong" }, "明槓": { kind: "kong" },
  "暗槓": { kind: "kong", concealed: true }, "暗杠": { kind: "kong", concealed: true },
  "加槓": { kind: "kong", added: true }, "加杠": { kind: "kong", added: true }
};
// English modifiers written before "kong".
const MODIFIERS = { concealed: "concealed", added: "added", exposed: "" };
const CJK_WORD = /[碰吃上槓杠暗加明]/;

function isDigit(c) { return c >= "0" && c <= "9"; }
function isSpace(c) { return /\s/.test(c); }
function isLetter(c) { return /[A-Za-z]/.test(c); }

// Reads tiles (MPSZ and Unicode mixed) from chars[i..end); answers
// {tiles, errors}. Positions are 1-based characters.
function readTiles(chars, i, end, errors) {
  const tiles = [];
  let digits = [];
  for (; i < end; i++) {
    const c = chars[i], pos = i + 1;
    if (isSpace(c)) continue;
    if (isDigit(c)) {
      if (c === "0") { errors.push({ code: "zero", pos }); continue; }
      digits.push(c);
      continue;
    }
    const s = c.toLowerCase();
    if (s.length === 1 && "mpsz".includes(s) && isLetter(c)) {
      if (!digits.length) { errors.push({ code: "suit_without_digits", pos, ch: c }); continue; }
      for (const d of digits) {
        if (s === "z" && d > "7") errors.push({ code: "honour_range", pos, tile: d + s });
        else tiles.push(d + s);
      }
      digits = [];
      continue;
    }
    const g = fromGlyph(c);
    if (g && g.tile) {
      if (digits.length) { errors.push({ code: "digits_without_suit", pos, digits: digits.join("") }); digits = []; }
      tiles.push(g.tile);
      continue;
    }
    if (g && g.flower) { errors.push({ code: "flower_in_hand", pos, flower: g.flower }); continue; }
    errors.push({ code: "bad_char", pos, ch: c });
  }
  return { tiles, digits };
}

// A meld from its kind and tiles: one tile stands for the whole set (its
// lowest tile for a chow). Answers the meld or an error code.
export function buildMeld(kind, tiles, flags) {
  const sorted = tiles.slice().sort((a, b) => (suitOf(a) === suitOf(b) ? numOf(a) - numOf(b) : a < b ? -1 : 1));
  let full = sorted;
  if (sorted.length === 1) {
    const t = sorted[0], n = numOf(t), s = suitOf(t);
    if (kind === "chow") {
      if (s === "z" || n > 7) return { error: "chow_start" };
      full = [t, n + 1 + s, n + 2 + s];
    } else {
      full = Array(kind === "kong" ? 4 : 3).fill(t);
    }
  }
  const want = kind === "kong" ? 4 : 3;
  if (full.length !== want) return { error: "meld_size" };
  const first = full[0];
  const ok = kind === "chow"
    ? suitOf(first) !== "z" && full.every((t, k) => suitOf(t) === suitOf(first) && numOf(t) === numOf(first) + k)
    : full.every((t) => t === first);
  if (!ok) return { error: kind === "chow" ? "not_a_chow" : "not_identical" };
  const m = { kind, tiles: full, concealed: !!flags.concealed, added: !!flags.added };
  return { meld: m };
}

// The kind a bracketed group of tiles makes.
function kindOf(tiles) {
  if (tiles.length === 4) return "kong";
  if (tiles.length === 3) return tiles.every((t) => t === tiles[0]) ? "pung" : "chow";
  return null;
}

/**
 * Parses the hand box.
 * @returns {{tiles: string[], melds: object[], pending: string, errors: object[]}}
 *   `tiles` in written order; `pending` the digits at the very end still
 *   waiting for their suit letter (not an error while typing); each error
 *   `{code, pos, ...}` with a 1-based character position.
 */
export function parseEntry(text) {
  const chars = Array.from(text || "");
  const tiles = [], melds = [], errors = [];
  let digits = [], digitsPos = 0;
  const flushDigitsError = (pos) => {
    if (digits.length) errors.push({ code: "digits_without_suit", pos: digitsPos, digits: digits.join("") });
    digits = [];
  };
  const addMeld = (kind, got, flags, pos, shown) => {
    if (!kind) { errors.push({ code: "meld_size", pos, tiles: shown }); return; }
    const r = buildMeld(kind, got, flags);
    if (r.error) errors.push({ code: r.error, pos, tiles: shown, kind });
    else melds.push(r.meld);
  };
  let i = 0;
  while (i < chars.length) {
    const c = chars[i], pos = i + 1;
    if (isSpace(c)) { i++; continue; }
    if (isDigit(c)) {
      if (c === "0") errors.push({ code: "zero", pos });
      else { if (!digits.length) digitsPos = pos; digits.push(c); }
      i++;
      continue;
    }
    if (c === "[" || c === "(") {
      flushDigitsError(pos);
      const close = c === "[" ? "]" : ")";
      let j = i + 1;
      while (j < chars.length && chars[j] !== close) j++;
      if (j >= chars.length) { errors.push({ code: "unclosed", pos, ch: c, close }); break; }
      let end = j, added = false;
      // [1111s+]: an added kong.
      let k = j - 1;
      while (k > i && isSpace(chars[k])) k--;
      if (chars[k] === "+") { added = true; end = k; }
      const errs = [];
      const r = readTiles(chars, i + 1, end, errs);
      if (r.digits.length) errs.push({ code: "digits_without_suit", pos: j + 1, digits: r.digits.join("") });
      const shown = chars.slice(i, j + 1).join("");
      if (errs.length) errors.push(...errs);
      else {
        const kind = kindOf(r.tiles);
        const concealed = c === "(";
        if ((concealed || added) && kind !== "kong") errors.push({ code: "only_kong_flags", pos, tiles: shown });
        else addMeld(kind, r.tiles, { concealed, added }, pos, shown);
      }
      i = j + 1;
      continue;
    }
    // A word: a run of ASCII letters longer than one suit letter, or a CJK keyword.
    if (isLetter(c) || CJK_WORD.test(c)) {
      let j = i;
      if (isLetter(c)) while (j < chars.length && isLetter(chars[j])) j++;
      else while (j < chars.length && CJK_WORD.test(chars[j])) j++;
      let word = chars.slice(i, j).join("");
      const lower = word.toLowerCase();
      if (word.length === 1 && "mpsz".includes(lower) && isLetter(c)) {
        if (!digits.length) errors.push({ code: "suit_without_digits", pos, ch: c });
        for (const d of digits) {
          if (lower === "z" && d > "7") errors.push({ code: "honour_range", pos, tile: d + lower });
          else tiles.push(d + lower);
        }
        digits = [];
        i = j;
        continue;
      }
      let flags = {};
      let spec = WORDS[lower];
      if (lower in MODIFIERS) {
        // "concealed kong 1s": the modifier, then "kong".
        let k = j;
        while (k < chars.length && isSpace(chars[k])) k++;
        let m = k;
        while (m < chars.length && isLetter(chars[m])) m++;
        if (chars.slice(k, m).join("").toLowerCase() === "kong") {
          spec = { kind: "kong" };
          if (MODIFIERS[lower]) flags[MODIFIERS[lower]] = true;
          word = chars.slice(i, m).join("");
          j = m;
        } else spec = null;
      }
      // Not a word the box knows: reported where it stands; digits before it keep waiting.
      if (!spec) { errors.push(word.length === 1 ? { code: "bad_char", pos, ch: word } : { code: "unknown_word", pos, word }); i = j; continue; }
      flushDigitsError(pos);
      flags = { ...flags, concealed: flags.concealed || !!spec.concealed, added: flags.added || !!spec.added };
      // The meld's tiles: the next group (digits and a suit letter, or glyphs).
      let k = j;
      while (k < chars.length && isSpace(chars[k])) k++;
      let m = k;
      while (m < chars.length && isDigit(chars[m])) m++;
      if (m > k && m < chars.length && "mpszMPSZ".includes(chars[m])) m++;
      else if (m === k) while (m < chars.length && fromGlyph(chars[m]) && fromGlyph(chars[m]).tile) m++;
      if (m === k) { errors.push({ code: "meld_needs_tiles", pos, word }); i = j; continue; }
      const errs = [];
      const r = readTiles(chars, k, m, errs);
      if (r.digits.length) errs.push({ code: "digits_without_suit", pos: k + 1, digits: r.digits.join("") });
      const shown = chars.slice(i, m).join("");
      if (errs.length) errors.push(...errs);
      else addMeld(spec.kind, r.tiles, flags, pos, shown);
      i = m;
      continue;
    }
    const g = fromGlyph(c);
    if (g && g.tile) {
      flushDigitsError(pos);
      tiles.push(g.tile);
    } else if (g && g.flower) {
      errors.push({ code: "flower_in_hand", pos, flower: g.flower });
    } else {
      errors.push({ code: "bad_char", pos, ch: c });
    }
    i++;
  }
  return { tiles, melds, pending: digits.join(""), errors };
}

// The box's text for a meld: [777z], (1111s) or [1111s+].
export function meldText(m) {
  const t = toMpsz(m.tiles);
  if (m.concealed) return "(" + t + ")";
  return "[" + t + (m.added ? "+" : "") + "]";
}

// The text the box shows for a model: melds first, then the concealed tiles
// in the order they were entered.
export function entryText(tiles, melds) {
  const parts = melds.map(meldText);
  const concealed = groupMpsz(tiles);
  if (concealed) parts.push(concealed);
  return parts.join(" ");
}
