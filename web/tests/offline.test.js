// What the page says of the connection: the browser's online/offline events
// and who answered the last request (the server, or the module on this
// device through the service worker). Values worked out by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { initialState, reduce, offlineNote } from "../js/state.js";
import { translate } from "../js/i18n.js";

const run = (s, ...actions) => actions.reduce(reduce, s);
const online = () => initialState({ connection: { online: true, local: false, worker: false } });

test("online with the server answering: nothing to say", () => {
  const s = run(online(), { type: "engineAnswered", local: false });
  assert.equal(offlineNote(s.connection), null);
});

test("an answer from this device says offline, scoring here, until the server answers again", () => {
  let s = run(online(), { type: "workerReady" }, { type: "engineAnswered", local: true });
  assert.deepEqual(s.connection, { online: true, local: true, worker: true });
  assert.equal(offlineNote(s.connection), "offline.local");
  s = run(s, { type: "engineAnswered", local: false });
  assert.equal(offlineNote(s.connection), null);
});

test("the browser offline: scoring here with a worker, else nothing scores until the connection is back", () => {
  const off = run(online(), { type: "connectionChanged", online: false });
  assert.equal(offlineNote(off.connection), "offline.none");
  assert.equal(offlineNote(run(off, { type: "workerReady" }).connection), "offline.local");
  assert.equal(offlineNote(run(off, { type: "connectionChanged", online: true }).connection), null);
});

test("the same connection again leaves the state as it was (no redraw)", () => {
  const s = run(online(), { type: "workerReady" });
  assert.equal(reduce(s, { type: "workerReady" }), s);
  assert.equal(reduce(s, { type: "engineAnswered", local: false }), s);
  assert.equal(reduce(s, { type: "connectionChanged", online: true }), s);
});

test("the note in both languages says what still works and that a shared night syncs later", () => {
  assert.match(translate("en", "offline.local"), /^Offline: scoring on this device\. .*analysis.*shared night/);
  assert.match(translate("zh", "offline.local"), /^離線中：喺呢部機度計番。.*分析.*分享咗嘅牌局/);
  assert.match(translate("zh", "offline.none"), /^離線中：/);
  // No tile codes or API words in the Chinese note.
  for (const k of ["offline.local", "offline.none"]) assert.doesNotMatch(translate("zh", k), /[A-Za-z]/);
});
