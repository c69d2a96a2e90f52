// A ruleset of the player's own: the House rules panel's patterns and
// switches over a built-in ruleset, as house rules (what every request
// sends) and as a ruleset document (docs/api.md, "Every rule a table
// plays": `{"extends": "<id>", ...}` in the keys of rulesets/*.toml, merged
// over the built-in with JSON merge-patch semantics). Pure (no DOM).
//
// Every pattern the engine knows comes from `GET /v1/patterns` (ids, names,
// switches, what it contains when added, whether it is optional); a
// ruleset's own values from its chart (`GET /v1/rulesets/{id}`).

import { LIMITS_PAY } from "./input.js";
import { TABLE_RULES } from "./ledger.js";

// The values a pattern's chooser offers (faan up to the highest limit of the built-in charts).
export const PATTERN_VALUES = ["off", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "limit"];

/**
 * Every pattern the page knows: id to `{id, name, name_zh, conditions,
 * contains_when_added, optional}`, in contract order: the server's pattern
 * table (`GET /v1/patterns`), then any pattern of the charts given it does
 * not list (a server without the table: the charts' patterns only).
 */
export function catalogue(table, charts) {
  const out = new Map();
  for (const p of (table && table.patterns) || []) {
    out.set(p.id, {
      id: p.id, name: p.name, name_zh: p.name_zh, conditions: (p.conditions || []).slice(),
      contains_when_added: (p.contains_when_added || []).slice(), optional: !!p.optional
    });
  }
  for (const c of charts || []) {
    for (const p of (c && c.patterns) || []) {
      const keys = Object.keys(p.conditions || {});
      const known = out.get(p.id);
      if (!known) out.set(p.id, { id: p.id, name: p.name, name_zh: p.name_zh, conditions: keys, contains_when_added: [], optional: false });
      else for (const k of keys) if (!known.conditions.includes(k)) known.conditions.push(k);
    }
  }
  return out;
}

/**
 * The panel's rows: `[{id, group}]`, group 0 the optional patterns, 1 the
 * ruleset's, 2 the others; each group in the catalogue's (contract) order.
 */
export function panelOrder(cat, chart) {
  const inChart = new Set(((chart && chart.patterns) || []).map((p) => p.id));
  const group = (p) => (p.optional ? 0 : inChart.has(p.id) ? 1 : 2);
  return [...cat.values()].map((p) => ({ id: p.id, group: group(p) })).sort((a, b) => a.group - b.group);
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

// ------------------------------------------------------------ limits that add

/** Whether limits add after the house rules: the house's choice, else the chart's. */
export function limitsAdd(chart, house) {
  const h = house && house.limits_add;
  return h != null ? !!h : !!(chart && chart.limits_add);
}

/**
 * The house rules with `limits_add` and `limits_pay` chosen (`null`: the
 * ruleset's). How a total above the limit pays matters only where limits
 * add: elsewhere a `limits_pay` is dropped, as its control is hidden.
 */
export function withLimits(house, chart, add, pay) {
  const out = { ...house };
  delete out.limits_add;
  delete out.limits_pay;
  if (add != null) out.limits_add = add;
  if (pay != null && LIMITS_PAY.includes(pay) && limitsAdd(chart, out)) out.limits_pay = pay;
  return out;
}

// ------------------------------------------- what contains what, exclusive pairs

/**
 * What `id` contains when nothing of the house rules changes it: the
 * chart's `contains` where the ruleset scores it, else what the engine
 * gives a pattern a house rule adds (`contains_when_added`).
 */
export function defaultContains(chart, cat, id) {
  const mine = ((chart && chart.patterns) || []).find((p) => p.id === id);
  if (mine) return (mine.contains || []).slice();
  const p = cat && cat.get(id);
  return p ? p.contains_when_added.slice() : [];
}

/** What `id` contains now: the house rule's list, else the default. */
export function effectiveContains(chart, house, cat, id) {
  const h = (house && house.contains) || {};
  return id in h ? h[id].slice() : defaultContains(chart, cat, id);
}

const sameList = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Ids in catalogue (contract) order, once each; unknown ids last. */
function inOrder(cat, ids) {
  const order = cat ? [...cat.keys()] : [];
  const rank = (id) => { const i = order.indexOf(id); return i < 0 ? order.length : i; };
  return [...new Set(ids)].sort((a, b) => rank(a) - rank(b));
}

/**
 * The house rules with `id` containing `list` (a `house_rules.contains`
 * entry), or without an entry when `list` is what it contains anyway.
 */
export function withContains(house, chart, cat, id, list) {
  const sorted = inOrder(cat, list);
  const contains = { ...((house && house.contains) || {}) };
  if (sameList(sorted, inOrder(cat, defaultContains(chart, cat, id)))) delete contains[id];
  else contains[id] = sorted;
  const out = { ...house, contains };
  if (!Object.keys(contains).length) delete out.contains;
  return out;
}

/** One id ticked in or out of what `id` contains. */
export function toggleContains(house, chart, cat, id, other, on) {
  const now = effectiveContains(chart, house, cat, id).filter((x) => x !== other);
  return withContains(house, chart, cat, id, on ? now.concat([other]) : now);
}

/**
 * The house rules without `contains` entries of patterns no longer scored
 * (the server refuses a `contains` of a pattern the ruleset does not score).
 */
export function pruneContains(house, chart) {
  if (!chart || !house || !house.contains) return house;
  const scored = scoredAfter(chart, house);
  const contains = Object.fromEntries(Object.entries(house.contains).filter(([id]) => scored.has(id)));
  const out = { ...house, contains };
  if (!Object.keys(contains).length) delete out.contains;
  return out;
}

const samePair = (p, a, b) => (p[0] === a && p[1] === b) || (p[0] === b && p[1] === a);

/** The house rules with `a` and `b` exclusive (nothing changes for one id twice, or a pair already there). */
export function withExclusive(house, chart, a, b) {
  if (!a || !b || a === b) return house;
  const have = ((chart && chart.exclusive) || []).concat((house && house.exclusive) || []);
  if (have.some((p) => samePair(p, a, b))) return house;
  return { ...house, exclusive: ((house && house.exclusive) || []).concat([[a, b]]) };
}

/** The house rules without their `i`th exclusive pair. */
export function withoutExclusive(house, i) {
  const exclusive = ((house && house.exclusive) || []).filter((_, j) => j !== i);
  const out = { ...house, exclusive };
  if (!exclusive.length) delete out.exclusive;
  return out;
}

/**
 * A message whose params name patterns by id (`pattern`, `via`), with each
 * id's names from the catalogue, so it reads in either language.
 */
export function namedPatterns(msg, cat) {
  const p = msg.params || {};
  const keys = ["pattern", "via"].filter((k) => typeof p[k] === "string");
  if (!keys.length) return msg;
  const params = { ...p };
  for (const k of keys) {
    const known = cat && cat.get(p[k]);
    params[k] = known && known.name ? { name: known.name, name_zh: known.name_zh } : { name: p[k].replace(/_/g, " ") };
  }
  return { ...msg, params };
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
  if (o.name_zh) doc.name_zh = o.name_zh;
  if (h.min_faan != null) doc.min_faan = h.min_faan;
  // A house limit is also what a limit pattern scores (ruleset.rs, with_house_rules).
  if (h.limit != null) { doc.limit = h.limit; doc.limit_faan = h.limit; }
  if (h.flowers != null) doc.bonus_tiles = h.flowers;
  if (Array.isArray(h.points)) doc.points = { table: h.points.slice(), curve: null };
  else if (h.points) doc.points = { curve: h.points, table: null, extend_last: null };
  if (h.discard_payment && chart.payment) doc.payment = { discard: discardPayment(chart.payment, h.discard_payment) };
  if (h.limits_add != null) doc.limits_add = h.limits_add;
  if (h.limits_pay != null) doc.limits_pay = h.limits_pay;

  const inChart = new Map((chart.patterns || []).map((p) => [p.id, p]));
  const cat = o.catalogue || catalogue(null, [chart]);
  const pats = {};
  for (const [id, v] of Object.entries(h.patterns || {})) {
    if (v === null) { if (inChart.has(id)) pats[id] = null; continue; }
    const entry = { faan: v };
    // A limit of its own value ("10*") becomes the value given.
    if (inChart.has(id) && inChart.get(id).limit) entry.limit = null;
    // An added pattern contains what a house rule gives it, written out so
    // the document scores as the house rules do on any server.
    const added = !inChart.has(id) && cat.get(id);
    if (added && added.contains_when_added.length) entry.contains = added.contains_when_added.slice();
    pats[id] = entry;
  }
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
  // Arrays replace whole under merge patch: the ruleset's pairs, then the house's.
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
  if ((m = /^\/patterns\/([^/]+)\/contains/.exec(rest))) return "/house_rules/contains/" + m[1];
  if ((m = /^\/patterns\/([^/]+)\/([a-z_]+)/.exec(rest)) && !["faan", "limit"].includes(m[2])) return "/house_rules/conditions/" + m[2];
  if (/^\/exclusive(\/|$)/.test(rest)) return "/house_rules/exclusive";
  if ((m = /^\/patterns\/([^/]+)/.exec(rest))) return "/house_rules/patterns/" + m[1];
  if ((m = /^\/table\/([a-z_]+)/.exec(rest))) return "/house_rules/" + m[1];
  const top = { "/min_faan": "/house_rules/min_faan", "/limit": "/house_rules/limit", "/limit_faan": "/house_rules/limit", "/limits_add": "/house_rules/limits_add", "/limits_pay": "/house_rules/limits_pay", "/bonus_tiles": "/house_rules/flowers", "/points": "/house_rules/points", "/payment": "/house_rules/discard_payment" };
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

// ------------------------------------------------------------- import

const DISCARD_RULES = ["discarder_pays_all", "discarder_pays_half", "discarder_pays_double"];

/**
 * What the page refuses in a document before it asks the server: a pattern
 * id that `GET /v1/patterns` does not know (`cat`, the page's catalogue;
 * none checked while it is empty), a pattern worth more than the limit
 * (write "limit" for that). Each `{pointer, key, params}` at the import box.
 */
export function importProblems(doc, chart, cat) {
  const out = [];
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return out;
  const limit = Number.isInteger(doc.limit) ? doc.limit : chart && Number.isInteger(chart.limit) ? chart.limit : null;
  const at = (key, params) => out.push({ pointer: "/ruleset_document", key, params });
  const pats = doc.patterns && typeof doc.patterns === "object" ? doc.patterns : {};
  for (const [id, p] of Object.entries(pats)) {
    if (cat && cat.size && !cat.has(id)) { at("house.import_unknown_pattern", { id }); continue; }
    const faan = p && typeof p === "object" ? p.faan : undefined;
    if (typeof faan === "number" && limit != null && faan > limit) at("house.import_faan_over", { id, faan, limit });
  }
  return out;
}

/**
 * A ruleset document back into the page's rules: `{ruleset, house, table,
 * skipped}` (`skipped`: the keys the panel cannot show, left out), or
 * `{problem}` (a message key). Only a document extending a built-in ruleset
 * (`chart`, its GET answer) is imported; its payment only where it is one
 * of the discard payment rules.
 */
export function houseFromDocument(doc, chart, cat) {
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) return { problem: "house.import_not_object" };
  if (typeof doc.extends !== "string" || !chart) return { problem: "house.import_extends" };
  const house = {}, table = {}, skipped = [];
  const patterns = {}, conditions = {}, contains = {};
  const nat = (v, min) => Number.isInteger(v) && v >= min;
  for (const [k, v] of Object.entries(doc)) {
    if (k === "extends" || k === "id" || k === "name" || k === "name_zh") continue;
    if (k === "min_faan" && nat(v, 0)) house.min_faan = v;
    else if (k === "limit" && nat(v, 1)) house.limit = v;
    else if (k === "limit_faan" && v === doc.limit) continue;
    else if (k === "bonus_tiles" && typeof v === "boolean") house.flowers = v;
    else if (k === "limits_add" && typeof v === "boolean") house.limits_add = v;
    else if (k === "limits_pay" && LIMITS_PAY.includes(v)) house.limits_pay = v;
    else if (k === "points" && v && typeof v.curve === "string") house.points = v.curve;
    else if (k === "points" && v && Array.isArray(v.table)) house.points = v.table.slice();
    else if (k === "payment" && v && Object.keys(v).length === 1 && v.discard && chart.payment) {
      const rule = DISCARD_RULES.find((r) => {
        const p = discardPayment(chart.payment, r);
        return p.discarder === v.discard.discarder && p.others === v.discard.others;
      });
      if (rule) house.discard_payment = rule; else skipped.push(k);
    } else if (k === "exclusive" && Array.isArray(v)) {
      // The ruleset's own pairs come first in an exported document: not house rules.
      const own = chart.exclusive || [];
      const pairs = v.filter((x) => Array.isArray(x) && x.length === 2 && !own.some((p) => samePair(p, x[0], x[1])));
      if (pairs.length) house.exclusive = pairs;
    }
    else if (k === "table" && v && typeof v === "object") {
      for (const [tk, tv] of Object.entries(v)) if (TABLE_RULES.includes(tk)) table[tk] = tv; else skipped.push("table." + tk);
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
  // A list that is what the pattern contains anyway (written out for an added one) is no house rule.
  const after = { ...house, patterns };
  for (const [id, list] of Object.entries(contains)) {
    const scored = scoredAfter(chart, after).has(id);
    if (scored && sameList(inOrder(cat, list), inOrder(cat, defaultContains(chart, cat, id)))) delete contains[id];
  }
  if (Object.keys(contains).length) house.contains = contains;
  return { ruleset: doc.extends, house, table, skipped };
}
