// The page with no signal. The service worker (/sw.js) is registered once
// the page is usable and the browser idle, so the first load carries none
// of what it keeps. What the page says of the connection comes from the
// browser's online/offline events and from answers the worker gave with
// the module on this device (`X-Faan-Engine: local`, api.js `onAnswer`).

/** The connection as the page knows it; `worker`: a service worker answers for this page. */
export const connectionNow = () => ({ online: typeof navigator === "undefined" || navigator.onLine !== false, local: false, worker: false });

const withConnection = (s, c) => (Object.keys(c).every((k) => s.connection[k] === c[k]) ? s : { ...s, connection: { ...s.connection, ...c } });
export const OFFLINE_TRANSITIONS = {
  connectionChanged: (s, a) => withConnection(s, { online: a.online }),
  /** An answer came: from the module on this device (`a.local`), or from the server. */
  engineAnswered: (s, a) => withConnection(s, { local: a.local }),
  workerReady: (s) => withConnection(s, { worker: true })
};

/** The note's key: none while the server answers; else whether this device still scores. */
export function offlineNote(c) {
  if (c.local || (!c.online && c.worker)) return "offline.local";
  return c.online ? null : "offline.none";
}

/** Follows the connection into the store and registers the worker after load, when idle. */
export function watchConnection(store) {
  const { dispatch } = store;
  window.addEventListener("online", () => dispatch({ type: "connectionChanged", online: true }));
  window.addEventListener("offline", () => dispatch({ type: "connectionChanged", online: false }));
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const ready = () => { if (sw.controller) dispatch({ type: "workerReady" }); };
  sw.addEventListener("controllerchange", ready);
  ready();
  const register = () => sw.register("/sw.js", { type: "module", updateViaCache: "none" }).catch(() => {});
  const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(register, { timeout: 3000 }) : setTimeout(register, 500));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
