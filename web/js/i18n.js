// Languages: the page's strings come from one table per language
// (web/i18n/en.js, web/i18n/zh.js). Pure apart from `storedLang`/`storeLang`.

import en from "../i18n/en.js";
import zh from "../i18n/zh.js";

export const TABLES = { en, zh };
export const LANGS = ["zh", "en"];
const STORE_KEY = "faan.lang";

/** The page's language: the stored choice, else the first supported browser language, else English. */
export function detectLang(stored, languages) {
  if (stored && TABLES[stored]) return stored;
  for (const l of languages || []) {
    const base = String(l).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
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
 * `{name}` placeholders filled from `params`; a key missing from a table falls back to English.
 * A count `n` picks the key's plural form where the table has one ("x.one" beside "x", which is
 * the other form), so English says "1 problem" and "2 problems"; Chinese needs none.
 */
export function translate(lang, key, params) {
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
