// Talking to this server's JSON API. An answer to an older request never
// overwrites a newer one: each request takes the next sequence number and
// aborts the one before; an answer is used only while its number is the
// latest (an aborted fetch may still resolve in some browsers).

export class Latest {
  constructor() {
    this.seq = 0;
    this.controller = null;
  }

  /** Starts a request: its number and the signal that aborts it when the next one starts. */
  next() {
    this.seq += 1;
    if (this.controller) this.controller.abort();
    this.controller = typeof AbortController === "function" ? new AbortController() : null;
    return { seq: this.seq, signal: this.controller ? this.controller.signal : undefined };
  }

  /** Forgets the request in flight (its answer will be dropped). */
  cancel() {
    this.seq += 1;
    if (this.controller) this.controller.abort();
    this.controller = null;
  }

  isLatest(seq) {
    return seq === this.seq;
  }
}

/** One call; answers `{status, ok, json}` (json null when the body is not JSON). */
export async function call(method, path, body, signal) {
  const init = { method, headers: { accept: "application/json, application/problem+json" }, signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  // window.fetch looked up at each call (a test may wrap it).
  const res = await window.fetch(path, init);
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  return { status: res.status, ok: res.ok, json };
}

export function isAbort(e) {
  return e && (e.name === "AbortError" || e.code === 20);
}
