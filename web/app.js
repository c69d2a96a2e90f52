// faan calculator: plain JavaScript, no framework, no network but this server.
// Builds a score request from the form, posts it to /v1/score, /v1/compare or
// /v1/waits, and shows the answer (or the problem+json errors next to the
// fields their JSON pointers name).
"use strict";

(function () {
  // ------------------------------------------------------------------ tiles

  var SUITS = [
    { letter: "m", name: "Characters", word: "char", max: 9 },
    { letter: "p", name: "Dots", word: "dot", max: 9 },
    { letter: "s", name: "Bamboo", word: "bam", max: 9 },
    { letter: "z", name: "Honours", word: "", max: 7 }
  ];
  var HONOURS = [
    { face: "E", name: "East wind", cp: 0x1f000 },
    { face: "S", name: "South wind", cp: 0x1f001 },
    { face: "W", name: "West wind", cp: 0x1f002 },
    { face: "N", name: "North wind", cp: 0x1f003 },
    { face: "Wh", name: "White dragon", cp: 0x1f006 },
    { face: "G", name: "Green dragon", cp: 0x1f005 },
    { face: "R", name: "Red dragon", cp: 0x1f004 }
  ];
  var SUIT_BASE = { m: 0x1f007, s: 0x1f010, p: 0x1f019 };
  var SUIT_ORDER = { m: 0, p: 1, s: 2, z: 3 };
  var FLOWERS = [
    { id: "F1", short: "Plum", name: "Plum (East)", cp: 0x1f022 },
    { id: "F2", short: "Orch", name: "Orchid (South)", cp: 0x1f023 },
    { id: "F3", short: "Chry", name: "Chrysanthemum (West)", cp: 0x1f025 },
    { id: "F4", short: "Bamb", name: "Bamboo (North)", cp: 0x1f024 },
    { id: "S1", short: "Spr", name: "Spring (East)", cp: 0x1f026 },
    { id: "S2", short: "Sum", name: "Summer (South)", cp: 0x1f027 },
    { id: "S3", short: "Aut", name: "Autumn (West)", cp: 0x1f028 },
    { id: "S4", short: "Win", name: "Winter (North)", cp: 0x1f029 }
  ];
  var SEATS = ["east", "south", "west", "north"];
  var TEXT_STYLE = "\uFE0E"; // ask for the text (not emoji) form of U+1F004

  function suitOf(t) { return t.charAt(t.length - 1); }
  function numOf(t) { return parseInt(t.charAt(0), 10); }

  function tileInfo(t) {
    var s = suitOf(t), n = numOf(t);
    if (s === "z") {
      var h = HONOURS[n - 1];
      return { suit: s, n: n, face: h.face, sub: n <= 4 ? "wind" : "dragon", name: h.name, glyph: String.fromCodePoint(h.cp) + TEXT_STYLE };
    }
    var suit = SUITS[SUIT_ORDER[s]];
    return { suit: s, n: n, face: String(n), sub: suit.word, name: n + " " + suit.name.toLowerCase(), glyph: String.fromCodePoint(SUIT_BASE[s] + n - 1) };
  }

  function allTiles() {
    var out = [];
    SUITS.forEach(function (s) {
      for (var n = 1; n <= s.max; n++) out.push(n + s.letter);
    });
    return out;
  }

  function compareTiles(a, b) {
    var d = SUIT_ORDER[suitOf(a)] - SUIT_ORDER[suitOf(b)];
    return d !== 0 ? d : numOf(a) - numOf(b);
  }

  // "123m5p" -> ["1m","2m","3m","5p"]; null when it is not strict MPSZ.
  function parseMpsz(text) {
    var s = text.replace(/\s+/g, "");
    var out = [], digits = [];
    for (var i = 0; i < s.length; i++) {
      var c = s.charAt(i);
      if (c >= "1" && c <= "9") { digits.push(c); continue; }
      if ("mpsz".indexOf(c) < 0 || digits.length === 0) return null;
      for (var j = 0; j < digits.length; j++) {
        if (c === "z" && digits[j] > "7") return null;
        out.push(digits[j] + c);
      }
      digits = [];
    }
    return digits.length ? null : out;
  }

  // ["2m","1m","5p"] -> "12m5p" (sorted, digits sharing a suit letter).
  function toMpsz(tiles) {
    var sorted = tiles.slice().sort(compareTiles), out = "", run = "", suit = "";
    sorted.forEach(function (t) {
      var s = suitOf(t);
      if (suit && s !== suit) { out += run + suit; run = ""; }
      suit = s; run += t.charAt(0);
    });
    return run ? out + run + suit : out;
  }

  // Does this browser have a font for the mahjong block? Compare a glyph's
  // pixels with those of an unassigned code point (the "no glyph" box).
  function glyphsSupported() {
    try {
      var c = document.createElement("canvas");
      c.width = c.height = 40;
      var g = c.getContext("2d");
      if (!g) return false;
      var draw = function (ch) {
        g.clearRect(0, 0, 40, 40);
        g.font = "32px sans-serif";
        g.textBaseline = "top";
        g.fillStyle = "#000";
        g.fillText(ch, 2, 2);
        return g.getImageData(0, 0, 40, 40).data.join(",");
      };
      var none = draw(String.fromCodePoint(0x1fbf9 + 6)); // unassigned
      var blank = draw(" ");
      return [0x1f007, 0x1f019, 0x1f010, 0x1f000].every(function (cp) {
        var p = draw(String.fromCodePoint(cp));
        return p !== none && p !== blank;
      });
    } catch (e) {
      return false;
    }
  }

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") e.textContent = attrs[k];
        else if (k === "className") e.className = attrs[k];
        else e.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c != null) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }

  // A tile face: the Unicode glyph when the font has it, a drawn face otherwise,
  // and the MPSZ code beside it.
  function tileFace(t, tag, extra) {
    var info = tileInfo(t);
    var attrs = { className: "tile suit-" + info.suit + (info.suit === "z" ? " z" + info.n : ""), "data-tile": t, title: info.name + " (" + t + ")" };
    if (tag === "button") attrs.type = "button";
    Object.keys(extra || {}).forEach(function (k) { attrs[k] = extra[k]; });
    return el(tag || "span", attrs, [
      el("span", { className: "glyph", "aria-hidden": "true", text: info.glyph }),
      el("span", { className: "face", "aria-hidden": "true" }, [
        el("span", { className: "face-main", text: info.face }),
        el("span", { className: "face-sub", text: info.sub })
      ]),
      el("span", { className: "code", text: t })
    ]);
  }

  function tileGroup(text, cls) {
    var tiles = parseMpsz(text) || [];
    return el("span", { className: "tile-group " + (cls || ""), "data-set": text }, tiles.map(function (t) { return tileFace(t, "span", { className: "tile mini suit-" + suitOf(t) }); }));
  }

  // ------------------------------------------------------------------ state

  var state = {
    hand: [],          // tiles in the order they were added
    raw: null,         // MPSZ text typed that did not parse (sent as is)
    winning: "",
    melds: [],         // {kind, tiles, concealed, added}
    flowers: {},       // "F1" -> true
    rulesets: [],
    rulesetInfo: {}
  };

  var $ = function (id) { return document.getElementById(id); };

  // ------------------------------------------------------------- rendering

  function renderPalette() {
    var pal = $("palette");
    pal.textContent = "";
    SUITS.forEach(function (s) {
      var row = el("div", { className: "palette-row", "data-suit": s.letter }, [el("span", { className: "palette-label", text: s.name })]);
      var tiles = el("div", { className: "tile-row" });
      for (var n = 1; n <= s.max; n++) tiles.appendChild(tileFace(n + s.letter, "button", { "data-count": "0" }));
      row.appendChild(tiles);
      pal.appendChild(row);
    });
  }

  function renderFlowers() {
    var box = $("flowers");
    box.textContent = "";
    FLOWERS.forEach(function (f) {
      var on = !!state.flowers[f.id];
      box.appendChild(el("button", {
        type: "button", className: "flower" + (f.id.charAt(0) === "S" ? " season" : ""), "data-flower": f.id,
        "aria-pressed": on ? "true" : "false", title: f.name
      }, [
        el("span", { className: "glyph", "aria-hidden": "true", text: String.fromCodePoint(f.cp) }),
        el("span", { className: "face", "aria-hidden": "true" }, [el("span", { className: "face-main", text: f.short })]),
        el("span", { className: "code", text: f.id })
      ]));
    });
  }

  function concealedText() {
    return state.raw != null ? state.raw : toMpsz(state.hand);
  }

  function renderHand() {
    var box = $("hand");
    box.textContent = "";
    var order = state.hand.map(function (t, i) { return { t: t, i: i }; });
    order.sort(function (a, b) { return compareTiles(a.t, b.t) || a.i - b.i; });
    var winIdx = -1;
    order.forEach(function (o, k) { if (o.t === state.winning) winIdx = k; });
    order.forEach(function (o, k) {
      var b = tileFace(o.t, "button", { "data-hand-index": String(o.i), "aria-label": "remove " + tileInfo(o.t).name });
      if (k === winIdx) { b.classList.add("winning"); b.setAttribute("data-winning", "true"); }
      box.appendChild(b);
    });
    box.setAttribute("data-empty", state.hand.length ? "false" : "true");
    var n = state.hand.length;
    var expected = 14 - 3 * state.melds.length;
    $("hand-count").textContent = n + " tile" + (n === 1 ? "" : "s") + " (a win needs " + expected + ", waits " + (expected - 1) + ")";
    var text = $("hand-text");
    if (document.activeElement !== text) text.value = concealedText();

    // winning tile select
    var sel = $("winning-tile");
    sel.textContent = "";
    sel.appendChild(el("option", { value: "", text: "— none" }));
    var seen = {};
    state.hand.slice().sort(compareTiles).forEach(function (t) {
      if (seen[t]) return;
      seen[t] = true;
      sel.appendChild(el("option", { value: t, text: t + " · " + tileInfo(t).name }));
    });
    sel.value = seen[state.winning] ? state.winning : "";

    // counts on the palette
    var counts = {};
    state.hand.forEach(function (t) { counts[t] = (counts[t] || 0) + 1; });
    state.melds.forEach(function (m) { (parseMpsz(m.tiles) || []).forEach(function (t) { counts[t] = (counts[t] || 0) + 1; }); });
    Array.prototype.forEach.call($("palette").querySelectorAll("[data-tile]"), function (b) {
      var c = counts[b.getAttribute("data-tile")] || 0;
      b.setAttribute("data-count", String(c));
      b.classList.toggle("over", c > 4);
    });
  }

  function meldLabel(m) {
    if (m.kind === "kong") return m.concealed ? "Concealed kong" : m.added ? "Added kong" : "Exposed kong";
    return m.kind === "chow" ? "Chow" : "Pung";
  }

  function renderMelds() {
    var list = $("melds");
    list.textContent = "";
    state.melds.forEach(function (m, i) {
      list.appendChild(el("li", { className: "meld", "data-pointer": "/hand/melds/" + i, "data-meld-index": String(i) }, [
        tileGroup(m.tiles),
        el("span", { className: "meld-kind", text: meldLabel(m) }),
        el("button", { type: "button", className: "link", "data-remove-meld": String(i), "aria-label": "remove meld " + m.tiles, text: "remove" }),
        el("p", { className: "field-error", "data-error-for": "/hand/melds/" + i, hidden: "" })
      ]));
    });
    $("melds-empty").hidden = state.melds.length > 0;
  }

  function renderAll() {
    renderHand();
    renderMelds();
    renderFlowers();
  }

  // --------------------------------------------------------------- editing

  function target() {
    var r = document.querySelector("input[name=target]:checked");
    return r ? r.value : "hand";
  }

  function setTarget(v) {
    var r = document.querySelector("input[name=target][value='" + v + "']");
    if (r) r.checked = true;
    syncTarget();
  }

  // Mark the chosen "palette adds" choice (for browsers without CSS :has()).
  function syncTarget() {
    Array.prototype.forEach.call(document.querySelectorAll("#target label"), function (l) {
      var input = l.querySelector("input");
      l.classList.toggle("on", !!(input && input.checked));
    });
  }

  function say(msg) { $("palette-message").textContent = msg || ""; }

  function paletteClick(t) {
    var tg = target();
    say("");
    if (tg === "hand") {
      if (state.raw != null) { state.hand = parseMpsz(state.raw) || []; state.raw = null; }
      state.hand.push(t);
      state.winning = t;
      renderHand();
      return;
    }
    var s = suitOf(t), n = numOf(t), meld;
    if (tg === "chow") {
      if (s === "z" || n > 7) { say("A chow starts at a suited tile from 1 to 7: tap its lowest tile."); return; }
      meld = { kind: "chow", tiles: "" + n + (n + 1) + (n + 2) + s };
    } else if (tg === "pung") {
      meld = { kind: "pung", tiles: "" + n + n + n + s };
    } else {
      meld = { kind: "kong", tiles: "" + n + n + n + n + s, concealed: tg === "kong-concealed", added: tg === "kong-added" };
    }
    state.melds.push(meld);
    say("Declared " + meldLabel(meld).toLowerCase() + " " + meld.tiles + ".");
    setTarget("hand");
    renderAll();
  }

  function removeHandIndex(i) {
    if (state.raw != null) { state.hand = parseMpsz(state.raw) || []; state.raw = null; }
    var t = state.hand[i];
    state.hand.splice(i, 1);
    if (t === state.winning && state.hand.indexOf(t) < 0) state.winning = state.hand.length ? state.hand[state.hand.length - 1] : "";
    renderHand();
  }

  function syncWinBy() {
    var selfDraw = $("win-by").value === "self_draw";
    var d = $("discarder");
    d.disabled = selfDraw;
    if (selfDraw) d.value = "";
    else if (!d.value) {
      var seat = SEATS.indexOf($("seat-wind").value);
      d.value = SEATS[(seat + 3) % 4]; // the player before the winner
    }
  }

  function reset() {
    state.hand = []; state.raw = null; state.winning = ""; state.melds = []; state.flowers = {};
    $("calc").reset();
    $("hand-text").value = "";
    setTarget("hand");
    selectDefaultRuleset();
    syncWinBy();
    syncHouseRules();
    clearErrors();
    say("");
    renderAll();
  }

  // -------------------------------------------------------------- requests

  function houseRules() {
    var hr = {}, v;
    v = $("hr-min-faan").value.trim();
    if (v !== "") hr.min_faan = Number(v);
    v = $("hr-limit").value.trim();
    if (v !== "") hr.limit = Number(v);
    v = $("hr-flowers").value;
    if (v !== "") hr.flowers = v === "true";
    v = $("hr-points").value;
    if (v === "table") {
      var raw = $("hr-points-table").value.trim();
      var nums = raw.split(/[\s,]+/).filter(Boolean).map(Number);
      hr.points = nums.length && nums.every(function (x) { return Number.isInteger(x) && x >= 0; }) ? nums : raw;
    } else if (v !== "") hr.points = v;
    v = $("hr-discard-payment").value;
    if (v !== "") hr.discard_payment = v;
    return Object.keys(hr).length ? hr : null;
  }

  function syncHouseRules() {
    $("hr-points-table").hidden = $("hr-points").value !== "table";
    var n = houseRules();
    $("house-rules-count").textContent = n ? "(" + Object.keys(n).length + " set)" : "(none: the ruleset's own)";
  }

  function handBody(waiting) {
    var hand = { tiles: concealedText() };
    if (state.melds.length) {
      hand.melds = state.melds.map(function (m) {
        var o = { kind: m.kind, tiles: m.tiles };
        if (m.concealed) o.concealed = true;
        if (m.added) o.added = true;
        return o;
      });
    }
    if (!waiting && state.winning) hand.winning_tile = state.winning;
    var fl = FLOWERS.map(function (f) { return f.id; }).filter(function (id) { return state.flowers[id]; });
    if (fl.length) hand.flowers = fl;
    return hand;
  }

  function contextBody(waiting) {
    var c = { seat_wind: $("seat-wind").value, round_wind: $("round-wind").value };
    if (waiting) {
      // POST /v1/waits takes only what holds whatever the winning tile is.
      if ($("last-tile").checked) c.last_tile = true;
      return c;
    }
    c.win_by = $("win-by").value;
    if ($("discarder").value && c.win_by !== "self_draw") c.discarder = $("discarder").value;
    if ($("replacement").value !== "none") c.replacement = $("replacement").value;
    [["double-kong", "double_kong"], ["last-tile", "last_tile"], ["heavenly", "heavenly"], ["earthly", "earthly"], ["flower-win", "flower_win"]].forEach(function (p) {
      if ($(p[0]).checked) c[p[1]] = true;
    });
    if ($("liable").value) c.liable = $("liable").value;
    return c;
  }

  function requestBody(kind) {
    var waiting = kind === "waits";
    var body = {};
    if (kind === "compare") body.rulesets = "all";
    else body.ruleset = $("ruleset").value;
    body.hand = handBody(waiting);
    body.context = contextBody(waiting);
    var hr = houseRules();
    if (hr) body.house_rules = hr;
    return body;
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, application/problem+json" },
      body: JSON.stringify(body)
    }).then(function (res) {
      return res.text().then(function (text) {
        var json = null;
        try { json = text ? JSON.parse(text) : null; } catch (e) { json = null; }
        return { status: res.status, ok: res.ok, json: json, text: text };
      });
    });
  }

  function setStatus(s, text) {
    var st = $("status");
    st.setAttribute("data-state", s);
    st.textContent = text;
  }

  function hideOutputs() {
    $("result").hidden = true;
    $("compare").hidden = true;
    $("waits").hidden = true;
  }

  function showOutput(id) {
    hideOutputs();
    $(id).hidden = false;
    if (window.matchMedia && window.matchMedia("(max-width: 899px)").matches) {
      $("output").scrollIntoView({ block: "start" });
    }
  }

  function run(kind) {
    clearErrors();
    var path = kind === "score" ? "/v1/score" : kind === "compare" ? "/v1/compare" : "/v1/waits";
    setStatus("loading", kind === "score" ? "Scoring…" : kind === "compare" ? "Scoring under every ruleset…" : "Looking for waits…");
    return post(path, requestBody(kind)).then(function (r) {
      if (!r.ok) {
        if (kind === "waits" && (r.status === 404 || r.status === 405) && !isRulesetProblem(r.json)) {
          hideOutputs();
          setStatus("error", "This server has no waits endpoint yet (POST /v1/waits answered " + r.status + ").");
          return;
        }
        showProblem(r);
        return;
      }
      if (kind === "score") renderScore(r.json);
      else if (kind === "compare") renderCompare(r.json);
      else renderWaits(r.json);
    }).catch(function (e) {
      hideOutputs();
      setStatus("error", "Could not reach the server: " + e.message);
    });
  }

  function isRulesetProblem(p) {
    return !!(p && p.errors && p.errors.some(function (e) { return /^\/rulesets?(\/|$)/.test(e.pointer); }));
  }

  // ---------------------------------------------------------------- errors

  function clearErrors() {
    $("error-summary").hidden = true;
    $("error-list").textContent = "";
    Array.prototype.forEach.call(document.querySelectorAll("[data-error-for]"), function (e) {
      e.textContent = ""; e.hidden = true;
    });
    Array.prototype.forEach.call(document.querySelectorAll(".has-error"), function (e) { e.classList.remove("has-error"); });
    Array.prototype.forEach.call(document.querySelectorAll("[aria-invalid]"), function (e) { e.removeAttribute("aria-invalid"); });
  }

  // The error slot for a pointer: the slot of the pointer itself or of its
  // nearest parent (/hand/flowers/1 -> /hand/flowers).
  function slotFor(pointer) {
    var p = pointer;
    while (p) {
      var slot = document.querySelector("[data-error-for='" + p.replace(/'/g, "\\'") + "']");
      if (slot) return slot;
      p = p.slice(0, p.lastIndexOf("/"));
    }
    return null;
  }

  function fieldFor(pointer) {
    var p = pointer;
    while (p) {
      var f = document.querySelector("[data-pointer='" + p.replace(/'/g, "\\'") + "']");
      if (f) return f;
      p = p.slice(0, p.lastIndexOf("/"));
    }
    return null;
  }

  function placeError(pointer, message) {
    var slot = slotFor(pointer);
    if (slot) {
      slot.appendChild(el("span", { className: "msg", "data-error-pointer": pointer, text: message }));
      slot.hidden = false;
    }
    var field = fieldFor(pointer);
    if (field) {
      field.classList.add("has-error");
      var input = field.matches("input,select") ? field : field.querySelector("input,select");
      if (input) input.setAttribute("aria-invalid", "true");
    }
    return field;
  }

  function showProblem(r) {
    hideOutputs();
    var p = r.json || {};
    var errors = Array.isArray(p.errors) ? p.errors.slice() : [];
    var type = String(p.type || "");
    if (!errors.length && /not-a-winning-hand$/.test(type)) {
      errors.push({ pointer: "/hand/tiles", message: p.detail || "These tiles are not a winning hand." });
    }
    $("error-title").textContent = (p.title || "The server refused this request") + " (" + r.status + ")";
    $("error-detail").textContent = errors.length ? "" : (p.detail || r.text || "");
    var list = $("error-list");
    errors.forEach(function (e) {
      var field = placeError(e.pointer || "", e.message || "");
      var li = el("li", { "data-error-pointer": e.pointer || "" }, [
        el("code", { text: e.pointer || "(request)" }), " ", e.message || ""
      ]);
      if (field) {
        li.classList.add("jump");
        li.addEventListener("click", function () {
          field.scrollIntoView({ block: "center" });
          var input = field.querySelector("input,select,button");
          if (input) input.focus();
        });
      }
      list.appendChild(li);
    });
    $("error-summary").hidden = false;
    setStatus("error", errors.length === 1 ? "1 problem: see the marked field." : (errors.length ? errors.length + " problems: see the marked fields." : "Not scored: " + (p.title || r.status)));
    $("error-summary").scrollIntoView({ block: "nearest" });
  }

  // --------------------------------------------------------------- results

  function signed(n) { return n > 0 ? "+" + n : String(n); }
  function dollars(x) { return (x > 0 ? "+" : x < 0 ? "-" : "") + "$" + Math.abs(x).toFixed(2); }

  function lineRow(l) {
    return el("tr", { "data-pattern": l.pattern }, [
      el("td", { text: l.name }),
      el("td", { className: "num", text: l.limit ? "limit (" + l.faan + ")" : String(l.faan) })
    ]);
  }

  function seatRole(seat, res, ctx) {
    if (seat === res.winner) return "winner";
    if (ctx.discarder === seat) return "discarder";
    if (ctx.liable === seat) return "liable";
    return "";
  }

  function renderScore(res) {
    var ctx = contextBody(false);
    $("total-faan").textContent = String(res.total_faan);
    $("min-faan").textContent = String(res.min_faan);
    $("limit").textContent = String(res.limit);
    $("base-points").textContent = String(res.base_points);
    $("limit-hand").hidden = !res.limit_hand;
    var mm = $("meets-minimum");
    mm.textContent = res.meets_minimum ? "meets the minimum" : "below the minimum by " + res.missing_faan;
    mm.className = "badge " + (res.meets_minimum ? "ok" : "bad");
    $("result").setAttribute("data-meets-minimum", String(res.meets_minimum));
    SEATS.forEach(function (seat) {
      var v = res.payments[seat];
      var b = $("payment-" + seat);
      b.textContent = signed(v);
      b.setAttribute("data-value", String(v));
      var box = $("pay-" + seat);
      var role = seatRole(seat, res, ctx);
      box.setAttribute("data-role", role);
      box.className = "pay" + (v > 0 ? " gain" : v < 0 ? " loss" : "") + (role ? " " + role : "");
      var seatLabel = box.querySelector(".seat");
      seatLabel.textContent = seat.charAt(0).toUpperCase() + seat.slice(1) + (role ? " · " + role : "");
      var m = res.money && res.money.payments ? res.money.payments[seat] : null;
      $("money-" + seat).textContent = m == null ? "" : dollars(m);
    });
    var lines = $("lines");
    lines.textContent = "";
    if (!res.lines.length) lines.appendChild(el("tr", {}, [el("td", { colspan: "2", className: "hint", text: "No faan lines: a chicken hand." })]));
    res.lines.forEach(function (l) { lines.appendChild(lineRow(l)); });
    lines.appendChild(el("tr", { className: "sum" }, [
      el("td", { text: res.raw_faan !== res.total_faan ? "Total (" + res.raw_faan + " capped at " + res.limit + ")" : "Total" }),
      el("td", { className: "num", text: String(res.total_faan) })
    ]));
    var rd = $("readings");
    rd.textContent = "";
    res.decompositions.forEach(function (d, i) {
      var chosen = i === res.chosen;
      var parts = [];
      (d.set_details && d.set_details.length ? d.set_details : d.sets.map(function (s) { return { tiles: s }; })).forEach(function (s) {
        var cls = (s.declared ? "declared " : "") + (s.winning ? "winning" : "");
        parts.push(tileGroup(s.tiles, cls));
      });
      (d.pairs || []).forEach(function (p) { parts.push(tileGroup(p, d.winning_in_pair ? "" : "")); });
      if (d.pair) parts.push(tileGroup(d.pair, "pair" + (d.winning_in_pair ? " winning" : "")));
      rd.appendChild(el("li", { className: "reading" + (chosen ? " chosen" : ""), "data-chosen": String(chosen), "data-index": String(i) }, [
        el("div", { className: "reading-head" }, [
          el("span", { className: "form", text: d.form.replace(/_/g, " ") }),
          el("b", { className: "reading-total", text: d.total_faan + " faan" }),
          chosen ? el("span", { className: "badge ok", text: "counts" }) : null
        ]),
        el("div", { className: "sets" }, parts),
        el("div", { className: "reading-lines", text: d.lines.map(function (l) { return l.name + " " + (l.limit ? "limit" : l.faan); }).join(" · ") || "no lines" })
      ]));
    });
    $("readings-count").textContent = "(" + res.decompositions.length + ")";
    setStatus("ok", "Scored under " + res.ruleset + ".");
    showOutput("result");
  }

  function rulesetName(id) {
    var r = state.rulesetInfo[id];
    return r ? r.name : id;
  }

  function renderCompare(res) {
    var grid = $("compare-grid");
    grid.textContent = "";
    var ids = Object.keys(res.results || {});
    var order = state.rulesets.map(function (r) { return r.id; }).filter(function (id) { return ids.indexOf(id) >= 0; });
    ids.forEach(function (id) { if (order.indexOf(id) < 0) order.push(id); });
    var selected = $("ruleset").value;
    if (order.indexOf(selected) > 0) { order.splice(order.indexOf(selected), 1); order.unshift(selected); }
    order.forEach(function (id) {
      var r = res.results[id];
      var card = el("article", { className: "cmp" + (id === selected ? " selected" : ""), id: "compare-" + id, "data-ruleset": id }, [
        el("h4", { title: id, text: rulesetName(id) })
      ]);
      if (r && r.status && r.type) {
        card.classList.add("problem");
        card.appendChild(el("p", { className: "cmp-problem", text: r.title || "not scored" }));
        (r.errors && r.errors.length ? r.errors : [{ pointer: "", message: r.detail }]).forEach(function (e) {
          card.appendChild(el("p", { className: "hint" }, [e.pointer ? el("code", { text: e.pointer }) : null, " ", e.message || ""]));
        });
        if (id === selected) showProblemsInline(r);
      } else if (r) {
        card.setAttribute("data-total-faan", String(r.total_faan));
        card.appendChild(el("div", { className: "cmp-total" }, [
          el("b", { className: "cmp-faan", text: String(r.total_faan) }), " faan ",
          el("span", { className: "badge " + (r.meets_minimum ? "ok" : "bad"), text: r.meets_minimum ? "≥ min " + r.min_faan : "< min " + r.min_faan }),
          el("span", { className: "hint-inline", text: " base " + r.base_points })
        ]));
        var t = el("table", { className: "lines" }, [el("tbody", {}, r.lines.map(lineRow))]);
        card.appendChild(t);
        card.appendChild(el("div", { className: "cmp-pay" }, SEATS.map(function (s) {
          var v = r.payments[s];
          var m = r.money && r.money.payments ? " " + dollars(r.money.payments[s]) : "";
          return el("span", { className: v > 0 ? "gain" : v < 0 ? "loss" : "", "data-seat": s, text: s.charAt(0).toUpperCase() + " " + signed(v) + m });
        })));
      }
      grid.appendChild(card);
    });
    setStatus("ok", "Scored under " + order.length + " rulesets.");
    showOutput("compare");
  }

  // A compare problem for the selected ruleset: mark the fields, no summary.
  function showProblemsInline(p) {
    (p.errors || []).forEach(function (e) { placeError(e.pointer || "", e.message || ""); });
  }

  function waitCell(w) {
    if (!w) return el("td", { text: "—" });
    return el("td", { className: w.meets_minimum ? "" : "below" }, [
      el("b", { text: w.total_faan + " faan" }),
      el("span", { className: "hint-inline", text: " · " + w.base_points + " pts" + (w.meets_minimum ? "" : " · below min") }),
      el("div", { className: "reading-lines", text: (w.lines || []).map(function (l) { return l.name + " " + (l.limit ? "limit" : l.faan); }).join(" · ") })
    ]);
  }

  function renderWaits(res) {
    var body = $("waits-body");
    body.textContent = "";
    var waits = res.waits || [];
    waits.forEach(function (w) {
      body.appendChild(el("tr", { "data-wait": w.tile }, [
        el("td", {}, [tileFace(w.tile, "span", { className: "tile mini suit-" + suitOf(w.tile) })]),
        el("td", { className: "num", text: String(w.unseen) }),
        waitCell(w.discard),
        waitCell(w.self_draw)
      ]));
    });
    $("waits-empty").hidden = waits.length > 0;
    $("waits-ruleset").textContent = "(" + (res.ruleset || $("ruleset").value) + ", " + waits.length + " tile" + (waits.length === 1 ? "" : "s") + ")";
    setStatus("ok", waits.length ? "Waiting on " + waits.map(function (w) { return w.tile; }).join(", ") + "." : "No tile completes this hand.");
    showOutput("waits");
  }

  // -------------------------------------------------------------- rulesets

  function selectDefaultRuleset() {
    var sel = $("ruleset");
    var ids = state.rulesets.map(function (r) { return r.id; });
    if (ids.indexOf("wisteria-court") >= 0) sel.value = "wisteria-court";
    else if (ids.length) sel.value = ids[0];
    showRulesetSummary();
  }

  function showRulesetSummary() {
    var r = state.rulesetInfo[$("ruleset").value];
    $("ruleset-summary").textContent = r ? r.name + ": minimum " + r.min_faan + " faan, limit " + r.limit + ", bonus tiles " + (r.bonus_tiles ? "in play" : "not in play") + ". " + (r.summary || "") : "";
    $("hr-min-faan").placeholder = r ? String(r.min_faan) : "ruleset";
    $("hr-limit").placeholder = r ? String(r.limit) : "ruleset";
  }

  function loadRulesets() {
    return fetch("/v1/rulesets").then(function (res) { return res.json(); }).then(function (j) {
      state.rulesets = j.rulesets || [];
      var sel = $("ruleset");
      sel.textContent = "";
      state.rulesets.forEach(function (r) {
        state.rulesetInfo[r.id] = r;
        sel.appendChild(el("option", { value: r.id, text: r.name + " (" + r.id + ")" }));
      });
      selectDefaultRuleset();
      document.body.setAttribute("data-rulesets-loaded", "true");
    }).catch(function (e) {
      $("ruleset-summary").textContent = "Could not load the rulesets: " + e.message;
    });
  }

  function loadExample() {
    reset();
    state.hand = ["1m", "2m", "3m", "4m", "5m", "6m", "7p", "8p", "2s", "3s", "4s", "5s", "5s", "9p"];
    state.winning = "9p";
    $("win-by").value = "self_draw";
    syncWinBy();
    renderAll();
  }

  // ------------------------------------------------------------------ wire

  function init() {
    if (!glyphsSupported()) document.body.classList.add("no-glyphs");
    renderPalette();
    renderAll();
    syncWinBy();
    syncHouseRules();

    $("target").addEventListener("change", syncTarget);
    syncTarget();
    $("palette").addEventListener("click", function (e) {
      var b = e.target.closest("[data-tile]");
      if (b) paletteClick(b.getAttribute("data-tile"));
    });
    $("hand").addEventListener("click", function (e) {
      var b = e.target.closest("[data-hand-index]");
      if (b) removeHandIndex(parseInt(b.getAttribute("data-hand-index"), 10));
    });
    $("melds").addEventListener("click", function (e) {
      var b = e.target.closest("[data-remove-meld]");
      if (!b) return;
      state.melds.splice(parseInt(b.getAttribute("data-remove-meld"), 10), 1);
      renderAll();
    });
    $("flowers").addEventListener("click", function (e) {
      var b = e.target.closest("[data-flower]");
      if (!b) return;
      var id = b.getAttribute("data-flower");
      if (state.flowers[id]) delete state.flowers[id]; else state.flowers[id] = true;
      renderFlowers();
    });
    $("hand-text").addEventListener("input", function () {
      var v = $("hand-text").value;
      var tiles = parseMpsz(v);
      if (tiles) {
        state.hand = tiles; state.raw = null;
        if (tiles.indexOf(state.winning) < 0) state.winning = tiles.length ? tiles[tiles.length - 1] : "";
      } else {
        state.raw = v;
      }
      renderHand();
    });
    $("winning-tile").addEventListener("change", function () { state.winning = $("winning-tile").value; renderHand(); });
    $("btn-clear-hand").addEventListener("click", function () { state.hand = []; state.raw = null; state.winning = ""; renderHand(); });
    $("win-by").addEventListener("change", syncWinBy);
    $("seat-wind").addEventListener("change", function () { if ($("discarder").value === $("seat-wind").value) { $("discarder").value = ""; syncWinBy(); } });
    $("ruleset").addEventListener("change", showRulesetSummary);
    $("house-rules").addEventListener("input", syncHouseRules);
    $("house-rules").addEventListener("change", syncHouseRules);
    $("calc").addEventListener("submit", function (e) { e.preventDefault(); run("score"); });
    $("btn-compare").addEventListener("click", function () { run("compare"); });
    $("btn-waits").addEventListener("click", function () { run("waits"); });
    $("btn-example").addEventListener("click", loadExample);
    $("btn-reset").addEventListener("click", reset);
    loadRulesets();
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
