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

/** `{name}` placeholders filled from `params`; a key missing from a table falls back to English. */
export function translate(lang, key, params) {
  const table = TABLES[lang] || en;
  let s = table[key];
  if (s == null) s = en[key];
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
