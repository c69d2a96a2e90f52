// Writes faan.d.ts from the API's OpenAPI document (openapi/openapi.json):
// one type per schema of its components, and the functions of faan.js.
//   node web/pkg/types.mjs          writes web/pkg/faan.d.ts
// web/pkg/test/faan.test.mjs checks the committed file is what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const name = (ref) => ref.replace('#/components/schemas/', '');
const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
const doc = (s, pad) => {
  const d = s && s.description;
  if (!d) return '';
  const lines = d.replace(/\*\//g, '*\\/').split('\n');
  return `${pad}/** ${lines.join(`\n${pad} * `)} */\n`;
};

/** The TypeScript type of a JSON Schema, written at indentation `pad`. */
function ts(s, pad = '') {
  if (s === true || s === undefined || s === null) return 'unknown';
  if (s === false) return 'never';
  if (s.$ref) return name(s.$ref);
  if ('const' in s) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const k of ['oneOf', 'anyOf']) {
    if (s[k]) return union(s[k].map((x) => ts(x, pad)));
  }
  if (s.allOf) return s.allOf.map((x) => ts(x, pad)).join(' & ');
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length === 0) return s.properties ? object(s, pad) : 'unknown';
  return union(types.map((t) => one(t, s, pad)));
}

function union(parts) {
  const uniq = [...new Set(parts)];
  return uniq.length === 1 ? uniq[0] : uniq.map((p) => (p.includes('\n') ? `(${p})` : p)).join(' | ');
}

function one(t, s, pad) {
  switch (t) {
    case 'string': return 'string';
    case 'integer':
    case 'number': return 'number';
    case 'boolean': return 'boolean';
    case 'null': return 'null';
    case 'array': {
      const item = ts(s.items, pad);
      return /^[\w.]+$/.test(item) ? `${item}[]` : `Array<${item}>`;
    }
    case 'object': return object(s, pad);
    default: return 'unknown';
  }
}

function object(s, pad) {
  const inner = `${pad}  `;
  const req = new Set(s.required || []);
  const lines = Object.entries(s.properties || {}).map(([k, v]) =>
    `${doc(v, inner)}${inner}${key(k)}${req.has(k) ? '' : '?'}: ${ts(v, inner)};`);
  const extra = s.additionalProperties;
  if (extra && extra !== false) lines.push(`${inner}[key: string]: ${extra === true ? 'unknown' : ts(extra, inner)};`);
  if (lines.length === 0) return extra === false ? 'Record<string, never>' : 'Record<string, unknown>';
  return `{\n${lines.join('\n')}\n${pad}}`;
}

const API = `
/** An endpoint's problem, as a rejection: \`status\` is the HTTP status. */
export interface FaanError extends Error {
  status: number;
  problem: Problem | null;
}

/** What the server would send: status, content type and body. */
export interface Answer {
  status: number;
  contentType: 'application/json' | 'application/problem+json';
  body: string;
}

/** Loads the module once (by default faan.wasm beside faan.js). */
export function init(source?: URL | string | Response | BufferSource | WebAssembly.Module): Promise<void>;
/** Answers a request as the server does (an unknown path is its 404 problem). */
export function respond(method: string, path: string, bodyText?: string): Promise<Answer>;
/** POST /v1/score */
export function score(request: ScoreRequest | string): Promise<ScoreResponse>;
/** POST /v1/settle */
export function settle(request: SettleRequest | string): Promise<SettleResponse>;
/** POST /v1/ledger */
export function ledger(request: LedgerRequest | string): Promise<LedgerResponse>;
/** POST /v1/analyze */
export function analyze(request: AnalyzeRequest | string): Promise<AnalyzeResponse>;
/** POST /v1/waits */
export function waits(request: WaitsRequest | string): Promise<WaitsResponse>;
/** POST /v1/score/batch */
export function batch(request: BatchRequest | string): Promise<BatchResponse>;
/** POST /v1/compare */
export function compare(request: CompareRequest | string): Promise<CompareResponse>;
/** POST /v1/penalties/false-win */
export function falseWin(request: FalseWinRequest | string): Promise<FalseWinResponse>;
/** POST /v1/rulesets/validate */
export function validate(request: ValidateRequest | string): Promise<RulesetDetail>;
/** GET /v1/rulesets */
export function rulesets(): Promise<RulesetList>;
/** GET /v1/rulesets/{id} */
export function ruleset(id: string): Promise<RulesetDetail>;
/** GET /v1/patterns */
export function patterns(): Promise<PatternTable>;
`;

/** faan.d.ts as written from `openapi`. */
export function declarations(openapi) {
  const schemas = openapi.components.schemas;
  const out = [
    '// The types of faan.js, written by types.mjs from openapi/openapi.json',
    `// (faan API ${openapi.info.version}). Do not edit: run node web/pkg/types.mjs.`,
    API,
  ];
  for (const [n, s] of Object.entries(schemas)) {
    out.push(`${doc(s, '')}export type ${n} = ${ts(s)};\n`);
  }
  return out.join('\n');
}

export function openapi() {
  return JSON.parse(readFileSync(here('../../openapi/openapi.json'), 'utf8'));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(here('./faan.d.ts'), declarations(openapi()));
}
