// The faan engine in the browser, a service worker or Node (18 or newer):
// the server's scoring endpoints answered by the WebAssembly module
// (faan.wasm), byte for byte as the server answers them.
//
//   import { init, score } from './faan.js';
//   await init();                       // optional: the first call loads it
//   const answer = await score({ ruleset: 'hkma', hand: {...}, context: {...} });
//
// A problem (what the server answers 4xx) rejects with an Error whose
// `status` is the HTTP status and `problem` the problem document.

// The module's operations (wasm/src/route.rs): its interface, fixed.
const OP = Object.freeze({
  respond: 0,
  score: 1,
  batch: 2,
  compare: 3,
  settle: 4,
  ledger: 5,
  waits: 6,
  analyze: 7,
  falseWin: 8,
  validate: 9,
  rulesets: 10,
  ruleset: 11,
  patterns: 12,
  schema: 13,
});

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** @type {Promise<WebAssembly.Exports> | null} */
let loading = null;

/**
 * Loads the module once. `source`: a URL (or its string), a Response, the
 * module's bytes (a BufferSource) or a compiled WebAssembly.Module; by
 * default faan.wasm beside this file (read from disk in Node).
 */
export function init(source) {
  if (!loading) {
    loading = instantiate(source).catch((e) => {
      loading = null; // a failed load may be retried
      throw e;
    });
  }
  return loading.then(() => undefined);
}

async function instantiate(source) {
  if (source === undefined) source = new URL('./faan.wasm', import.meta.url);
  if (typeof source === 'string') source = new URL(source, import.meta.url);
  let instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, {});
  } else if (source instanceof URL && source.protocol === 'file:') {
    // Node: no fetch of file: URLs. Only this branch imports Node's fs.
    const { readFile } = await import('node:fs/promises');
    ({ instance } = await WebAssembly.instantiate(await readFile(source), {}));
  } else {
    if (source instanceof URL) source = await fetch(source);
    if (typeof Response !== 'undefined' && source instanceof Response) {
      if (!source.ok) throw new Error(`faan.wasm: HTTP ${source.status}`);
      const streaming = typeof WebAssembly.instantiateStreaming === 'function'
        && (source.headers.get('content-type') || '').startsWith('application/wasm');
      ({ instance } = streaming
        ? await WebAssembly.instantiateStreaming(source, {})
        : await WebAssembly.instantiate(await source.arrayBuffer(), {}));
    } else {
      ({ instance } = await WebAssembly.instantiate(source, {}));
    }
  }
  return instance.exports;
}

/** One call of the module: the HTTP status and the answer's text. */
async function call(op, text) {
  if (!loading) init();
  const ex = await loading;
  const input = encoder.encode(text);
  const len = input.length;
  let status;
  let out;
  try {
    const ptr = ex.faan_alloc(len) >>> 0;
    new Uint8Array(ex.memory.buffer, ptr, len).set(input);
    try {
      status = ex.faan_call(op, ptr, len) >>> 0;
    } finally {
      ex.faan_free(ptr, len);
    }
    // The memory may have grown during the call: its buffer read afresh.
    out = decoder.decode(
      new Uint8Array(ex.memory.buffer, ex.faan_out_ptr() >>> 0, ex.faan_out_len() >>> 0),
    );
  } catch (e) {
    // A trap leaves the instance unusable: the next call loads it again.
    if (loading) loading = null;
    const err = new Error(`faan.wasm failed: ${e && e.message}`);
    err.status = 500;
    err.problem = null;
    throw err;
  }
  return { status, text: out };
}

/**
 * Answers a request as the server does: `method` ('GET', 'POST', 'HEAD',
 * ...), `path` ('/v1/score', '/v1/rulesets/hkma'; a query is ignored) and
 * the body's text. Resolves to {status, contentType, body}; an unknown path
 * is the server's 404 problem, a wrong method its 405.
 */
export async function respond(method, path, bodyText = '') {
  const { status, text } = await call(OP.respond, `${method} ${path}\n${bodyText ?? ''}`);
  return {
    status,
    contentType: status === 200 ? 'application/json' : 'application/problem+json',
    body: text,
  };
}

async function answer(op, body) {
  const { status, text } = await call(op, typeof body === 'string' ? body : JSON.stringify(body));
  const value = JSON.parse(text);
  if (status === 200) return value;
  const err = new Error(`${value.title}: ${value.detail}`);
  err.status = status;
  err.problem = value;
  throw err;
}

/** POST /v1/score */
export const score = (request) => answer(OP.score, request);
/** POST /v1/settle */
export const settle = (request) => answer(OP.settle, request);
/** POST /v1/ledger */
export const ledger = (request) => answer(OP.ledger, request);
/** POST /v1/analyze */
export const analyze = (request) => answer(OP.analyze, request);
/** POST /v1/waits */
export const waits = (request) => answer(OP.waits, request);
/** POST /v1/score/batch */
export const batch = (request) => answer(OP.batch, request);
/** POST /v1/compare */
export const compare = (request) => answer(OP.compare, request);
/** POST /v1/penalties/false-win */
export const falseWin = (request) => answer(OP.falseWin, request);
/** POST /v1/rulesets/validate */
export const validate = (request) => answer(OP.validate, request);
/** GET /v1/rulesets */
export const rulesets = () => answer(OP.rulesets, '');
/** GET /v1/rulesets/{id} */
export const ruleset = (id) => answer(OP.ruleset, String(id));
/** GET /v1/patterns */
export const patterns = () => answer(OP.patterns, '');
