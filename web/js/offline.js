// The page with no signal, loaded once the page is usable: none of it is
// in the first load. It registers the service worker (/sw.js) when the
// browser is idle, links the web app manifest, and follows the browser's
// online/offline events and whether a worker serves the page into the
// store (state.js `connection`; api.js `onAnswer` tells who answered).

/** Follows the connection into the store; registers the worker and links the manifest, when idle. */
export function watchConnection(store) {
  const { dispatch } = store;
  const online = () => dispatch({ type: "connectionChanged", online: navigator.onLine !== false });
  window.addEventListener("online", online);
  window.addEventListener("offline", online);
  online();
  const sw = navigator.serviceWorker;
  const ready = () => { if (sw && sw.controller) dispatch({ type: "workerReady" }); };
  if (sw) sw.addEventListener("controllerchange", ready);
  ready();
  const later = () => {
    if (!document.querySelector("link[rel=manifest]")) {
      const link = document.createElement("link");
      link.rel = "manifest";
      link.href = "/manifest.webmanifest";
      document.head.appendChild(link);
    }
    if (sw) sw.register("/sw.js", { type: "module", updateViaCache: "none" }).catch(() => {});
  };
  const idle = () => (window.requestIdleCallback ? window.requestIdleCallback(later, { timeout: 3000 }) : setTimeout(later, 500));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
