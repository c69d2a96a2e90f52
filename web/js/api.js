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

// Told of each answer: whether the module on this device gave it (offline.js).
let answered = () => {};
export function onAnswer(fn) { answered = fn; }

/**
 * The page's one way to the server: `method path`, a JSON `body` when
 * given, `headers` added to the JSON ones; answers `{status, ok, json}`
 * (json null when the body is not JSON), or `{status, ok, blob}` when
 * `as` is "blob". A network failure rejects.
 */
export async function call(method, path, body, signal, headers, as) {
  const init = { method, headers: { accept: "application/json, application/problem+json", ...headers }, signal };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  // window.fetch looked up at each call (a test may wrap it).
  const res = await window.fetch(path, init);
  answered(!!res.headers && res.headers.get("x-faan-engine") === "local");
  if (as === "blob") return { status: res.status, ok: res.ok, blob: res.ok ? await res.blob() : null };
  const text = await res.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
  return { status: res.status, ok: res.ok, json };
}

export function isAbort(e) {
  return e && (e.name === "AbortError" || e.code === 20);
}

/**
 * The server's CSV of a night for people (docs/api.md, "A night as CSV"),
 * in the page's language (`lang`): `GET path`, or `POST path` with `body`;
 * saved as a file; false when the server could not be reached or refused.
 */
export async function saveCsv(method, path, body, lang) {
  let res;
  const headers = { accept: "text/csv", "accept-language": lang === "zh" ? "zh-HK" : "en" };
  try { res = await call(method, path, body, undefined, headers, "blob"); } catch (e) { return false; }
  if (!res.ok) return false;
  const a = document.createElement("a");
  a.href = URL.createObjectURL(res.blob);
  a.download = "faan-night-" + new Date().toISOString().slice(0, 10) + (lang === "zh" ? ".zh" : "") + ".csv";
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 60000);
  return true;
}

// How long to wait before opening a closed event stream again.
const RETRY_MS = 2000;

/**
 * Follows a shared table's event stream (`GET /v1/tables/{id}/events`,
 * docs/tables.md), for the viewer's page and a scorer's alike: `on.table`
 * gets each TABLE, `on.change(kind, change)` each `hand` and `undo`,
 * `on.connection` "live" or "offline", `on.gone` once the table is deleted
 * or there is none. EventSource resumes with Last-Event-ID by itself; a
 * stream the server closed is opened again after 2 s, unless the table is
 * gone; coming back online opens it again. Answers `{close}`.
 */
export function followTable(id, on) {
  let stream = null;
  let timer = 0;
  let closed = false;
  const parsed = (e) => { try { return JSON.parse(e.data); } catch (err) { return null; } };

  function open() {
    clearTimeout(timer);
    if (closed) return;
    if (stream) stream.close();
    const es = new EventSource("/v1/tables/" + id + "/events");
    stream = es;
    es.addEventListener("table", (e) => { const t = parsed(e); if (t) on.table(t); });
    for (const kind of ["hand", "undo"]) es.addEventListener(kind, (e) => { const c = parsed(e); if (c) on.change(kind, c); });
    es.addEventListener("deleted", () => { es.close(); closed = true; on.gone(); });
    es.addEventListener("open", () => on.connection("live"));
    es.addEventListener("error", () => {
      if (closed) return;
      on.connection("offline");
      // Closed (the server answered other than a stream): is the table still there?
      if (es.readyState === EventSource.CLOSED) timer = setTimeout(check, RETRY_MS);
    });
  }

  async function check() {
    try {
      const r = await call("GET", "/v1/tables/" + id);
      if (r.status === 404) { closed = true; on.gone(); return; }
    } catch (e) { /* still offline */ }
    open();
  }

  // Back online: the stream opened again (one that outlived the outage may be stuck until its next keep-alive).
  const online = () => open();
  window.addEventListener("online", online);
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      window.removeEventListener("online", online);
      if (stream) stream.close();
    }
  };
}
