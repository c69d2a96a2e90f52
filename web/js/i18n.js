// Languages: the page's strings come from one table per language
// (web/i18n/en.js, web/i18n/zh.js), each loaded when first chosen: a page
// reads one language, and the other would be a tenth of its first load.
// Pure apart from `loadLang` and `storedLang`/`storeLang`.

/** The tables loaded so far, by language. */
export const TABLES = {};
export const LANGS = ["zh", "en"];
const STORE_KEY = "faan.lang";
// Literal paths: the server's check that every import resolves reads them.
const LOADERS = { en: () => import("../i18n/en.js"), zh: () => import("../i18n/zh.js") };

/** Loads a language's table (once); answers when `translate` can use it. */
export async function loadLang(lang) {
  if (!TABLES[lang] && LOADERS[lang]) TABLES[lang] = (await LOADERS[lang]()).default;
  return TABLES[lang];
}

// Outside a page (the unit tests, under node) both tables load at once:
// nothing there waits on a network.
if (typeof document === "undefined") await Promise.all(LANGS.map(loadLang));

/** The page's language: the stored choice, else the first supported browser language, else English. */
export function detectLang(stored, languages) {
  if (stored && LOADERS[stored]) return stored;
  for (const l of languages || []) {
    const base = String(l).toLowerCase().split("-")[0];
    if (LOADERS[base]) return base;
  }
  return "en";
}

/** The key's plural form for a count `n` ("house.count.one" beside "house.count"), if the table has one. */
function pluralKey(table, lang, key, params) {
  const n = params && params.n;
  if (typeof n !== "number") return key;
  const form = key + "." + new Intl.PluralRules(lang).select(n);
  return table[form] != null ? form : key;
}

/**
 * `{name}` placeholders filled from `params`; a key missing from a table falls back to English
 * (where loaded; the two tables hold the same keys).
 * A count `n` picks the key's plural form where the table has one ("x.one" beside "x", which is
 * the other form), so English says "1 problem" and "2 problems"; Chinese needs none.
 */
export function translate(lang, key, params) {
  const en = TABLES.en || {};
  const table = TABLES[lang] || en;
  let s = table[pluralKey(table, lang, key, params)];
  if (s == null) s = en[pluralKey(en, "en", key, params)];
  if (s == null) return key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (params && params[k] != null ? String(params[k]) : m));
}

/** A translator bound to one language. */
export function makeT(lang) {
  const t = (key, params) => translate(lang, key, params);
  t.lang = lang;
  return t;
}

export function storedLang() {
  try { return window.localStorage.getItem(STORE_KEY); } catch (e) { return null; }
}

export function storeLang(lang) {
  try { window.localStorage.setItem(STORE_KEY, lang); } catch (e) { /* private mode: not remembered */ }
}
