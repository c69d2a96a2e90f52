// A ruleset of the player's own: the House rules panel's patterns and
// switches over a built-in ruleset, as house rules (what every request
// sends) and as a ruleset document (api-contract.md, "Every rule a table
// plays": `{"extends": "<id>", ...}` in the keys of rulesets/*.toml, merged
// over the built-in with JSON merge-patch semantics). Pure (no DOM).
//
// The server lists only the patterns a ruleset scores (`GET
// /v1/rulesets/{id}`), with their names and switches; there is no list of
// every pattern. The page's catalogue is the union of the charts it has
// seen, plus the contract's optional pattern ids, which no built-in ruleset
// scores: their names come from a chart that scores them (`POST
// /v1/rulesets/validate` of a document adding them) or from a scored line.

// api-contract.md, "Every rule a table plays": the pattern ids added by issue 16.
export const OPTIONAL_PATTERNS = [
  "fully_concealed", "melded_hand", "all_simples", "voided_suit", "last_of_its_kind",
  "moon_from_the_bottom", "plum_blossom_on_the_roof", "prevailing_flower",
  "double_flower_replacement", "kong_flower_replacement", "common_hand"
];

// The values a pattern's chooser offers (faan up to the highest limit of the built-in charts).
export const PATTERN_VALUES = ["off", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "limit"];

/**
 * Every pattern the page knows: id to `{id, name, name_zh, conditions}`
 * (condition keys), from the charts given (in order: the first naming a
 * pattern names it) and names learned from scored lines; the optional ids
 * last, unnamed (null) where nothing named them.
 */
export function catalogue(charts, learned) {
  const out = new Map();
  for (const c of charts) {
    for (const p of (c && c.patterns) || []) {
      const keys = Object.keys(p.conditions || {});
      const known = out.get(p.id);
      if (!known) out.set(p.id, { id: p.id, name: p.name, name_zh: p.name_zh, conditions: keys });
      else for (const k of keys) if (!known.conditions.includes(k)) known.conditions.push(k);
    }
  }
  for (const id of OPTIONAL_PATTERNS) {
    if (out.has(id)) continue;
    const l = (learned || {})[id];
    out.set(id, { id, name: l ? l.name : null, name_zh: l ? l.name_zh : null, conditions: [] });
  }
  return out;
}

/** Names seen in faan lines (`{pattern, name, name_zh}`), kept by pattern id. */
export function learnNames(learned, lines) {
  for (const l of lines || []) if (l && l.pattern && l.name) learned[l.pattern] = { name: l.name, name_zh: l.name_zh || null };
  return learned;
}

/** The ids a ruleset scores once the house rules' patterns are applied. */
export function scoredAfter(chart, house) {
  const ids = new Set(((chart && chart.patterns) || []).map((p) => p.id));
  for (const [id, v] of Object.entries((house && house.patterns) || {})) {
    if (v === null) ids.delete(id); else ids.add(id);
  }
  return ids;
}

/** Condition key to the ids of the patterns it belongs to (as the catalogue knows them). */
export function conditionOwners(cat) {
  const out = {};
  for (const p of cat.values()) for (const k of p.conditions) (out[k] = out[k] || []).push(p.id);
  return out;
}

/** The switches that matter now: each condition of a pattern scored after the house rules, with the ruleset's value. */
export function conditionsShown(chart, house, cat) {
  const scored = scoredAfter(chart, house);
  const owners = conditionOwners(cat);
  const byId = new Map(((chart && chart.patterns) || []).map((p) => [p.id, p]));
  const out = [];
  for (const [key, ids] of Object.entries(owners)) {
    const on = ids.filter((id) => scored.has(id));
    if (!on.length) continue;
    const inChart = on.map((id) => byId.get(id)).find((p) => p && p.conditions && key in p.conditions);
    out.push({ key, patterns: on, value: inChart ? !!inChart.conditions[key] : null });
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** A pattern override as the chooser's value: "" (the ruleset's), "off", a number or "limit". */
export function patternChoice(house, id) {
  const p = (house && house.patterns) || {};
  if (!(id in p)) return "";
  return p[id] === null ? "off" : String(p[id]);
}

/** The house rules with one pattern's chooser set to `choice`. */
export function withPattern(house, id, choice) {
  const patterns = { ...((house && house.patterns) || {}) };
  if (choice === "") delete patterns[id];
  else patterns[id] = choice === "off" ? null : choice === "limit" ? "limit" : Number(choice);
  const out = { ...house, patterns };
  if (!Object.keys(patterns).length) delete out.patterns;
  return out;
}

/** The house rules with one condition switched (`null`: back to the ruleset's). */
export function withCondition(house, key, value) {
  const conditions = { ...((house && house.conditions) || {}) };
  if (value === null) delete conditions[key]; else conditions[key] = value;
  const out = { ...house, conditions };
  if (!Object.keys(conditions).length) delete out.conditions;
  return out;
}

// ------------------------------------------------------- the document

/** The id of the player's ruleset over `base`. */
export function customId(base) {
  return "custom-" + base;
}

const eighths = (x) => Math.round(x * 8);

/**
 * A discard payment house rule as the `[payment]` multiples it makes of
 * the ruleset's (the server's `Payment::with_discard`, in eighths of B:
 * all of the discard total, half of it and a quarter each, or 2 and 1).
 */
export function discardPayment(payment, rule) {
  const total = eighths(payment.discarder) + 2 * eighths(payment.others);
  let d, o;
  if (rule === "discarder_pays_all") { d = total; o = 0; }
  else if (rule === "discarder_pays_half") { d = Math.floor(total / 2); o = Math.floor(total / 4); }
  else { d = 16; o = 8; }
  return { discarder: d / 8, others: o / 8 };
}

/**
 * The ruleset document of the page's rules: `extends` the built-in ruleset
 * of `chart` (its `GET /v1/rulesets/{id}` answer) and lists only what the
 * house rules and table rules change, in the TOML files' keys. Merge-patch
 * semantics: `null` removes a key (a pattern switched off, the other form of
 * the points), an object changes only the keys it lists.
 */
export function rulesetDocument(chart, house, table, opts) {
  const h = house || {};
  const o = opts || {};
  const doc = { extends: chart.id, id: o.id || customId(chart.id), name: o.name || chart.name };
  if (h.min_faan != null) doc.min_faan = h.min_faan;
  // A house limit is also what a limit pattern scores (ruleset.rs, with_house_rules).
  if (h.limit != null) { doc.limit = h.limit; doc.limit_faan = h.limit; }
  if (h.flowers != null) doc.bonus_tiles = h.flowers;
  if (Array.isArray(h.points)) doc.points = { table: h.points.slice(), curve: null };
  else if (h.points) doc.points = { curve: h.points, table: null, extend_last: null };
  if (h.discard_payment && chart.payment) doc.payment = { discard: discardPayment(chart.payment, h.discard_payment) };
  if (h.limits_add != null) doc.limits_add = h.limits_add;

  const inChart = new Map((chart.patterns || []).map((p) => [p.id, p]));
  const pats = {};
  for (const [id, v] of Object.entries(h.patterns || {})) {
    if (v === null) { if (inChart.has(id)) pats[id] = null; continue; }
    const entry = { faan: v };
    // A limit of its own value ("10*") becomes the value given.
    if (inChart.has(id) && inChart.get(id).limit) entry.limit = null;
    pats[id] = entry;
  }
  const cat = o.catalogue || catalogue([chart], {});
  const scored = scoredAfter(chart, h);
  const owners = conditionOwners(cat);
  for (const [key, v] of Object.entries(h.conditions || {})) {
    for (const id of owners[key] || []) {
      if (!scored.has(id)) continue;
      pats[id] = { ...(pats[id] || {}), [key]: v };
    }
  }
  for (const [id, list] of Object.entries(h.contains || {})) {
    if (scored.has(id)) pats[id] = { ...(pats[id] || {}), contains: list.slice() };
  }
  if (Object.keys(pats).length) doc.patterns = pats;
  if (Array.isArray(h.exclusive) && h.exclusive.length) doc.exclusive = (chart.exclusive || []).concat(h.exclusive);
  if (table && Object.keys(table).length) doc.table = { ...table };
  return doc;
}

/** Whether the page's rules change anything of the built-in ruleset. */
export function isCustom(house, table) {
  return Object.keys(house || {}).length > 0 || Object.keys(table || {}).length > 0;
}

/** The file name of a downloaded document. */
export function documentFileName(doc) {
  return doc.id.replace(/[^a-z0-9-]/g, "-") + ".json";
}

/**
 * A problem of a ruleset document (`/ruleset/...`, from validate or compare)
 * at the House rules control that made it.
 */
export function docPointer(pointer) {
  const p = String(pointer || "");
  let m = /^\/(?:ruleset|rulesets\/\d+)(\/.*)?$/.exec(p);
  // A compare item itself (the document sent beside the built-in ids).
  if (m && !m[1] && p.startsWith("/rulesets/")) return "/ruleset_document";
  if (!m || !m[1]) return p;
  const rest = m[1];
  if ((m = /^\/patterns\/([^/]+)\/([a-z_]+)/.exec(rest)) && !["faan", "limit", "contains"].includes(m[2])) return "/house_rules/conditions/" + m[2];
  if ((m = /^\/patterns\/([^/]+)/.exec(rest))) return "/house_rules/patterns/" + m[1];
  if ((m = /^\/table\/([a-z_]+)/.exec(rest))) return "/house_rules/" + m[1];
  const top = { "/min_faan": "/house_rules/min_faan", "/limit": "/house_rules/limit", "/limit_faan": "/house_rules/limit", "/bonus_tiles": "/house_rules/flowers", "/points": "/house_rules/points", "/payment": "/house_rules/discard_payment" };
  for (const [k, v] of Object.entries(top)) if (rest === k || rest.startsWith(k + "/")) return v;
  return "/ruleset_document";
}

/**
 * The compare request with the player's ruleset beside the built-in ones:
 * every built-in id as it is (no house rules: the document carries them)
 * and the document.
 */
export function compareWithCustom(body, ids, doc) {
  const out = { ...body };
  delete out.ruleset;
  delete out.house_rules;
  out.rulesets = ids.concat([doc]);
  return out;
}

/** The document that asks the server to name the optional patterns (a chart scoring them all). */
export function namingDocument(base) {
  const patterns = {};
  for (const id of OPTIONAL_PATTERNS) patterns[id] = { faan: 1 };
  return { extends: base, id: customId(base), name: base, patterns };
}

// ------------------------------------------------------------- import

const DISCARD_RULES = ["discarder_pays_all", "discarder_pays_half", "discarder_pays_double"];
const TABLE_KEYS = ["stake", "dealer_keeps_on_win", "dealer_keeps_on_draw", "multiple_winners", "dealer_multiplier", "liable_discard"];

/**
 * A ruleset document back into the page's rules: `{ruleset, house, table,
 * skipped}` (`skipped`: the keys the panel cannot show, left out), or
 * `{problem}` (a message key). Only a document extending a built-in ruleset
 * (`chart`, its GET answer) is imported; its payment only where it is one
 * of the discard payment rules.
 */
export function houseFromDocument(doc, chart) {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { problem: "house.import_not_object" };
  if (typeof doc.extends !== "string" || !chart) return { problem: "house.import_extends" };
  const house = {}, table = {}, skipped = [];
  const patterns = {}, conditions = {}, contains = {};
  const nat = (v, min) => Number.isInteger(v) && v >= min;
  for (const [k, v] of Object.entries(doc)) {
    if (k === "extends" || k === "id" || k === "name") continue;
    if (k === "min_faan" && nat(v, 0)) house.min_faan = v;
    else if (k === "limit" && nat(v, 1)) house.limit = v;
    else if (k === "limit_faan" && v === doc.limit) continue;
    else if (k === "bonus_tiles" && typeof v === "boolean") house.flowers = v;
    else if (k === "limits_add" && typeof v === "boolean") house.limits_add = v;
    else if (k === "points" && v && typeof v.curve === "string") house.points = v.curve;
    else if (k === "points" && v && Array.isArray(v.table)) house.points = v.table.slice();
    else if (k === "payment" && v && Object.keys(v).length === 1 && v.discard && chart.payment) {
      const rule = DISCARD_RULES.find((r) => {
        const p = discardPayment(chart.payment, r);
        return p.discarder === v.discard.discarder && p.others === v.discard.others;
      });
      if (rule) house.discard_payment = rule; else skipped.push(k);
    } else if (k === "exclusive" && Array.isArray(v)) house.exclusive = v.filter((x) => Array.isArray(x) && x.length === 2);
    else if (k === "table" && v && typeof v === "object") {
      for (const [tk, tv] of Object.entries(v)) if (TABLE_KEYS.includes(tk)) table[tk] = tv; else skipped.push("table." + tk);
    } else if (k === "patterns" && v && typeof v === "object") {
      for (const [id, p] of Object.entries(v)) {
        if (p === null) { patterns[id] = null; continue; }
        if (!p || typeof p !== "object") { skipped.push("patterns." + id); continue; }
        for (const [pk, pv] of Object.entries(p)) {
          if (pk === "faan" && (pv === "limit" || nat(pv, 0))) patterns[id] = pv;
          else if (pk === "limit" && pv === null) continue;
          else if (pk === "contains" && Array.isArray(pv)) contains[id] = pv.slice();
          else if (typeof pv === "boolean" && pk !== "limit") conditions[pk] = pv;
          else skipped.push("patterns." + id + "." + pk);
        }
      }
    } else skipped.push(k);
  }
  if (Object.keys(patterns).length) house.patterns = patterns;
  if (Object.keys(conditions).length) house.conditions = conditions;
  if (Object.keys(contains).length) house.contains = contains;
  return { ruleset: doc.extends, house, table, skipped };
}
