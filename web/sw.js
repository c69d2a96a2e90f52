// The calculator with no signal (docs/calculator.md, "Offline"). After one
// visit this worker keeps the page, its hashed assets and the scoring
// module, in a cache named by the build; when a scoring request cannot
// reach the server it answers it with the module, the same answer the
// server gives, marked `X-Faan-Engine: local`. Shared tables and their
// streams are never answered here: they fail as they would without a
// worker, and the page's queue sends the hands once the server is back.
//
// The server writes CONFIG at start-up: the build's hash and the paths to
// keep (src/http/offline.rs).

import { init, respond } from "/pkg/faan.js";

const CONFIG = /*config*/{ "build": "dev", "precache": [] }/*end config*/;
const CACHE = "faan-" + CONFIG.build;
// Kept if they can be had: without the module the page still opens, and
// says it cannot score.
const OPTIONAL = new Set(["/pkg/faan.wasm"]);

// What the module answers when the network fails: the scoring endpoints.
const LOCAL_POST = new Set(["/v1/score", "/v1/score/batch", "/v1/compare", "/v1/settle", "/v1/ledger",
  "/v1/waits", "/v1/analyze", "/v1/penalties/false-win"]);
const LOCAL_GET = /^\/v1\/(rulesets|patterns|rulesets\/(?!schema$|validate$)[^/]+)$/;
// An asset under its content-hashed name never changes (src/http/calculator.rs).
const HASHED = /\.[0-9a-f]{10}\.[a-z]+$/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(CONFIG.precache.filter((p) => !OPTIONAL.has(p)));
    await Promise.all(CONFIG.precache.filter((p) => OPTIONAL.has(p)).map((p) => cache.add(p).catch(() => {})));
    await self.skipWaiting();
  })());
});

// The new build's cache replaces the old ones, and this worker takes the open pages.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const k of await caches.keys()) if (k.startsWith("faan-") && k !== CACHE) await caches.delete(k);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  const path = url.pathname;
  if (req.mode === "navigate") {
    if (path === "/") event.respondWith(page(req));
    return;
  }
  if (path.startsWith("/v1/")) {
    if ((req.method === "POST" && LOCAL_POST.has(path)) || (req.method === "GET" && LOCAL_GET.test(path))) event.respondWith(api(req, path));
    return;
  }
  if (req.method === "GET" && (HASHED.test(path) || CONFIG.precache.includes(path))) event.respondWith(kept(req, path));
});

/** The page: the server's when it answers (kept for next time), else the one kept. */
async function page(req) {
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      caches.open(CACHE).then((c) => c.put("/", copy)).catch(() => {});
    }
    return res;
  } catch (err) {
    const kept = await caches.match("/", { cacheName: CACHE });
    if (kept) return kept;
    throw err;
  }
}

/** A file that never changes within a build: the kept copy, else the network's (then kept). */
async function kept(req, path) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(path);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) cache.put(path, res.clone()).catch(() => {});
  return res;
}

/** A scoring request: the server's answer; when the network fails, the module's. */
async function api(req, path) {
  const body = req.method === "POST" ? await req.clone().text() : "";
  try {
    return await fetch(req);
  } catch (err) {
    // Given up by the page (a newer request replaced it): nothing to answer.
    if (req.signal && req.signal.aborted) throw err;
    const answer = await local(req.method, path, body);
    if (!answer) throw err;
    return answer;
  }
}

let engine = null;

/** The module, started once from the kept `.wasm` (null when it cannot start). */
function started() {
  if (!engine) {
    engine = (async () => {
      const wasm = await caches.match("/pkg/faan.wasm", { cacheName: CACHE });
      if (!wasm) return false;
      // The module's bytes: init takes them as well as a URL.
      await init(await wasm.arrayBuffer());
      return true;
    })().catch(() => false);
    // A failure is not kept: the next request tries again.
    engine.then((ok) => { if (!ok) engine = null; });
  }
  return engine;
}

/** The module's answer to one request, as a response marked local; null when the module is not there. */
async function local(method, path, body) {
  if (!(await started())) return null;
  const r = await respond(method, path, body);
  return new Response(r.body, { status: r.status, headers: { "content-type": r.contentType, "x-faan-engine": "local" } });
}
