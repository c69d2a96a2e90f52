// What each view asks the server: its request, whether the inputs are ready
// for it, and what the status line says of its answer. Pure (no DOM):
// flows.js sends them, the stale note compares their keys.
//
// `hand`: the request is the calculator's hand, checked by the page first
// (format.js `localErrors`); `get`: a GET without a body.

import { requestBody, readyToScore, readyForWaits } from "./input.js";
import { rulesetLabel, rulesetName } from "./format.js";
import { compareWithCustom } from "./custom.js";
import { ledgerRequest, seated, cleanRules } from "./ledger.js";
import { readyForAnalysis, analyzeBody, discardOptions, discardProblems, summarize } from "./discard.js";
import { handOf, tOf, compareDocument, rulesInForce, nightRuleset } from "./state.js";

const hasHouse = (s) => Object.keys(s.input.house || {}).length > 0;
const named = (s, id) => rulesetName(s.server.info[id], tOf(s), id);

export const REQUESTS = {
  score: {
    path: "/v1/score", section: "result", loadingKey: "status.scoring", hand: true,
    ready: (s) => readyToScore(s.input, handOf(s)),
    body: (s) => requestBody("score", s.input, handOf(s)),
    // House rules sent with the hand: the name says so.
    done: (s, res) => ({ key: "status.scored", params: { name: rulesetLabel(named(s, res.ruleset), hasHouse(s), tOf(s)) } })
  },
  compare: {
    path: "/v1/compare", section: "compare", loadingKey: "status.comparing", hand: true,
    ready: (s) => readyToScore(s.input, handOf(s)),
    body(s) {
      const doc = compareDocument(s);
      const body = requestBody("compare", s.input, handOf(s));
      return doc ? compareWithCustom(body, s.server.rulesets.map((r) => r.id), doc) : body;
    },
    done: (s, res) => ({ key: "status.compared", params: { n: Object.keys(res.results || {}).length } })
  },
  waits: {
    path: "/v1/waits", section: "waits", loadingKey: "status.waiting", hand: true,
    ready: (s) => readyForWaits(handOf(s)),
    body: (s) => requestBody("waits", s.input, handOf(s)),
    done(s, res) {
      const waits = res.waits || [];
      return waits.length ? { key: "status.waits", params: { tiles: waits.map((w) => w.tile).join(tOf(s)("list.sep")) } } : { key: "status.no_waits" };
    }
  },
  rules: {
    pathFor: (s) => "/v1/rulesets/" + encodeURIComponent(s.input.ruleset), section: "rules", loadingKey: "rules.loading", get: true,
    ready: () => true,
    done: (s, res) => ({ key: "status.rules", params: { name: rulesetName(res, tOf(s)) } })
  },
  table: {
    path: "/v1/ledger", section: "table", loadingKey: "status.tallying",
    ready: (s) => seated(s.night) && s.night.hands.length > 0,
    /** The night (or `night`, the night with a hand being added). */
    body: (s, night) => ledgerRequest(night || s.night, s.input),
    done: (s, res) => ({ key: "status.tallied", params: { n: (res.hands || []).length } })
  },
  discard: {
    path: "/v1/analyze", section: "discard", loadingKey: "status.analyzing",
    ready: (s) => readyForAnalysis(handOf(s)) && !discardProblems(s.input).length,
    body: (s) => analyzeBody(s.input, handOf(s), discardOptions(s.input)),
    done(s, res) {
      const v = summarize(res);
      return v.discarding ? { key: "status.analyzed", params: { tile: v.best.tile } } : { key: "status.analyzed_hand", params: { n: v.best.count } };
    }
  }
};

/** The request `view` would send now: its key tells an answer out of date. */
export function requestKey(state, view) {
  const r = REQUESTS[view];
  return view + " " + state.input.ruleset + " " + (r.get ? "" : JSON.stringify(r.body(state)));
}

/** The section that shows `view`'s answer. */
export function sectionOf(view) {
  return REQUESTS[view].section;
}

/** The calculator's hand as the Table view scores it (POST /v1/score): the night's table rules too. */
export function previewBody(state) {
  const body = requestBody("score", state.input, handOf(state));
  // The rules the night's next hand is played under.
  body.ruleset = nightRuleset(state);
  const house = rulesInForce(state);
  if (Object.keys(house).length) body.house_rules = house; else delete body.house_rules;
  return body;
}
