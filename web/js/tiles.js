// Tiles: the 34 kinds in MPSZ, the bonus tiles, their Unicode glyphs, and
// ordering. Pure (no DOM), so Node's test runner can import it.
//
// Glyph code points follow the API contract ("Names in two languages, and
// more ways to write tiles"): U+1F000..U+1F003 winds, U+1F004 red, U+1F005
// green, U+1F006 white, U+1F007.. characters, U+1F010.. bamboo, U+1F019.. dots,
// U+1F022..U+1F029 the bonus tiles.

export const SEATS = ["east", "south", "west", "north"];
export const SUIT_LETTERS = ["m", "p", "s", "z"];
const SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3 };
const SUIT_BASE = { m: 0x1f007, s: 0x1f010, p: 0x1f019 };
// 1z..7z: east, south, west, north, white, green, red.
const HONOUR_CP = [0x1f000, 0x1f001, 0x1f002, 0x1f003, 0x1f006, 0x1f005, 0x1f004];
export const FLOWERS = ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4"];
const FLOWER_CP = { F1: 0x1f022, F2: 0x1f023, F3: 0x1f025, F4: 0x1f024, S1: 0x1f026, S2: 0x1f027, S3: 0x1f028, S4: 0x1f029 };
// Ask for the text (not emoji) presentation of U+1F004, the one mahjong
// character with an emoji form.
const TEXT_STYLE = "\uFE0E";

export const ALL_TILES = (() => {
  const out = [];
  for (const s of SUIT_LETTERS) {
    const max = s === "z" ? 7 : 9;
    for (let n = 1; n <= max; n++) out.push(n + s);
  }
  return out;
})();

export function suitOf(t) { return t.charAt(t.length - 1); }
export function numOf(t) { return t.charCodeAt(0) - 48; }
export function isTile(t) { return typeof t === "string" && ALL_TILES.includes(t); }
export function tileIndex(t) { return ALL_TILES.indexOf(t); }

export function compareTiles(a, b) {
  return SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)] || numOf(a) - numOf(b);
}

export function glyph(t) {
  const s = suitOf(t), n = numOf(t);
  if (s === "z") return String.fromCodePoint(HONOUR_CP[n - 1]) + (n === 7 ? TEXT_STYLE : "");
  return String.fromCodePoint(SUIT_BASE[s] + n - 1);
}

export function flowerGlyph(id) { return String.fromCodePoint(FLOWER_CP[id]); }

// A Unicode mahjong character -> {tile} or {flower}, else null.
export function fromGlyph(ch) {
  const cp = ch.codePointAt(0);
  if (cp >= 0x1f000 && cp <= 0x1f006) return { tile: HONOUR_CP.indexOf(cp) + 1 + "z" };
  for (const s of ["m", "s", "p"]) {
    const n = cp - SUIT_BASE[s] + 1;
    if (n >= 1 && n <= 9) return { tile: n + s };
  }
  for (const id of FLOWERS) if (FLOWER_CP[id] === cp) return { flower: id };
  return null;
}

// Sorted and grouped: ["2m","1m","5p"] -> "12m5p".
export function toMpsz(tiles) {
  return groupMpsz(tiles.slice().sort(compareTiles));
}

// In the given order, digits sharing a suit letter while the suit stays the
// same: ["1m","2m","5p","4m"] -> "12m5p4m" (so the last digit written is
// still the last tile).
export function groupMpsz(tiles) {
  let out = "", run = "", suit = "";
  for (const t of tiles) {
    const s = suitOf(t);
    if (suit && s !== suit) { out += run + suit; run = ""; }
    suit = s;
    run += t.charAt(0);
  }
  return run ? out + run + suit : out;
}

// Tile counts across the concealed tiles and the melds' tiles.
export function countTiles(tiles, melds) {
  const counts = {};
  const add = (t) => { counts[t] = (counts[t] || 0) + 1; };
  tiles.forEach(add);
  (melds || []).forEach((m) => m.tiles.forEach(add));
  return counts;
}

// The next seat counter-clockwise in turn order (east -> south -> west -> north).
export function seatBefore(seat) {
  return SEATS[(SEATS.indexOf(seat) + 3) % 4];
}
