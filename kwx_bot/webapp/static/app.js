// The table as a Telegram Mini App (docs/webapp.md): draws the screen values the server sends and
// nothing else. No game rule and no translation lives here: which tiles may be tapped, the claim
// buttons, the 亮倒 / 廊起 choices and every text come from the screen's JSON; the labels come from
// /webapp/words/<lang>.json (the pictures' labels and the page's own few words).
"use strict";

(() => {
  const tg = (window.Telegram && window.Telegram.WebApp) || null;
  const S = {
    payload: null, // the last {table, seq, role, seat, lang, screen, result?}
    words: null, // {lang, labels, ui}
    wordsKey: "",
    selected: null, // the tile (notation) picked for a second tap
    busy: false,
    tableId: null,
    backoff: 0,
    lastData: 0, // Date.now() of the stream's last bytes
    lastActSeq: null, // the seq at which the player was last told it is his turn
    countdown: null,
  };
  const TILE_INDEX = { p: 0, s: 9, m: 18 }; // notation -> index of the labels' tile list

  // -- small helpers ------------------------------------------------------------------------------
  function el(tag, cls, ...children) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return node;
  }
  const ui = (key) => (S.words && S.words.ui[key]) || "";
  const labels = () => (S.words ? S.words.labels : null);
  const fill = (text, values) => String(text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const signed = (v) => (v > 0 ? "+" + v : v < 0 ? "\u2212" + -v : "0");

  function tileName(tile) {
    const lb = labels();
    if (!lb || !tile) return "";
    const n = Number(tile[0]);
    const i = tile[1] === "z" ? 27 + n - 5 : TILE_INDEX[tile[1]] + n - 1;
    return lb.tiles[i] || tile;
  }

  // Telegram HTML (the captions) drawn safely: only b, i, u, s, code and links survive, as elements
  // made here; every other markup becomes its text.
  const ALLOWED = new Set(["B", "STRONG", "I", "EM", "U", "S", "CODE", "PRE", "A", "BR"]);
  function richText(html, cls) {
    const doc = new DOMParser().parseFromString(`<div>${html}</div>`, "text/html");
    const out = el("div", cls);
    const copy = (src, dst) => {
      for (const n of src.childNodes) {
        if (n.nodeType === Node.TEXT_NODE) {
          const parts = n.textContent.split("\n");
          parts.forEach((p, i) => {
            if (i) dst.append(el("br"));
            dst.append(document.createTextNode(p));
          });
        } else if (n.nodeType === Node.ELEMENT_NODE && ALLOWED.has(n.tagName)) {
          const e = document.createElement(n.tagName === "A" ? "a" : n.tagName.toLowerCase());
          if (n.tagName === "A") {
            const href = n.getAttribute("href") || "";
            if (/^https?:\/\//.test(href)) {
              e.href = href;
              e.target = "_blank";
              e.rel = "noopener";
            }
          }
          copy(n, e);
          dst.append(e);
        } else if (n.nodeType === Node.ELEMENT_NODE) {
          copy(n, dst);
        }
      }
    };
    copy(doc.body.firstChild, out);
    return out;
  }

  function face(tile, state, cls) {
    const name = (tile || "back") + (state ? "-" + state : "");
    const img = el("img", "tile " + (cls || ""));
    img.src = "tiles/" + name + ".png";
    img.alt = tile ? tileName(tile) : "";
    img.draggable = false;
    let tries = 0;
    img.onerror = () => {
      // a face lost in a drop (a restart, the network): try again while the page reconnects
      if (tries++ < 8) setTimeout(() => (img.src = "tiles/" + name + ".png?r=" + tries), 1000 * tries);
    };
    return img;
  }

  function toast(text) {
    const t = document.getElementById("toast");
    t.textContent = text;
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => (t.hidden = true), 3500);
  }

  function banner(text) {
    const b = document.getElementById("banner");
    b.textContent = text || "";
    b.hidden = !text;
  }

  // -- Telegram ------------------------------------------------------------------------------------
  function initData() {
    return (tg && tg.initData) || "";
  }

  function applyTheme() {
    const root = document.documentElement;
    const params = (tg && tg.themeParams) || {};
    for (const [k, v] of Object.entries(params)) root.style.setProperty("--tg-" + k.replace(/_/g, "-"), v);
    root.dataset.scheme = (tg && tg.colorScheme) || "light";
  }

  function haptic(kind) {
    try {
      if (tg && tg.HapticFeedback) {
        if (kind === "turn") tg.HapticFeedback.notificationOccurred("warning");
        else tg.HapticFeedback.selectionChanged();
      }
    } catch (e) {
      /* old clients */
    }
  }

  const onMain = () => {
    const key = selectedKey();
    if (key) send(key.data);
  };
  const onBack = () => {
    if (S.replay) {
      if (S.tableId) location.href = tableHref(); // the replay opened from a live table: back to it
      return;
    }
    S.selected = null;
    render();
  };

  function syncTelegramButtons(key) {
    if (!tg) return;
    const main = tg.MainButton;
    const back = tg.BackButton;
    if (main) {
      if (key) {
        main.setText(tileName(key.tile) || key.label); // the tile's name, without the key's ▶ / ⚠ marks
        main.show();
      } else main.hide();
    }
    if (back) {
      if (key) back.show();
      else back.hide();
    }
  }

  // -- the table's id and words ----------------------------------------------------------------------
  function tableId() {
    const q = new URLSearchParams(location.search).get("table");
    if (q && /^\d+$/.test(q)) return q;
    const sp = tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param;
    if (sp && /^t\d+$/.test(sp)) return sp.slice(1);
    return null;
  }

  // the live table this page was opened on, with the same signature (the replay's way back)
  function tableHref() {
    return `?table=${encodeURIComponent(S.tableId)}${location.hash}`;
  }

  // a finished hand's replay: ?replay=r<table>_<hand> or the start parameter r<table>_<hand>
  function replayParam() {
    const sp = tg && tg.initDataUnsafe && tg.initDataUnsafe.start_param;
    const p = new URLSearchParams(location.search).get("replay") || sp || "";
    const m = /^r(\d+)_(\d+)$/.exec(p);
    return m ? { table: m[1], hand: m[2] } : null;
  }

  async function loadWords(lang, game) {
    const key = lang + "/" + game;
    if (S.wordsKey === key && S.words) return;
    const r = await fetch(`words/${encodeURIComponent(lang)}.json?game=${encodeURIComponent(game)}`);
    if (!r.ok) throw new Error("words " + r.status);
    S.words = await r.json();
    S.wordsKey = key;
    document.documentElement.lang = S.words.lang === "en" ? "en" : "zh-CN";
  }

  function firstLang() {
    const u = tg && tg.initDataUnsafe && tg.initDataUnsafe.user;
    return (u && u.language_code) || "zh";
  }

  // -- the server ------------------------------------------------------------------------------------
  function api(path, options) {
    const opts = options || {};
    const headers = { Authorization: "tma " + initData() };
    if (opts.body) headers["Content-Type"] = "application/json";
    return fetch("api/" + path, { ...opts, headers, cache: "no-store" });
  }

  async function send(data) {
    if (S.busy || !data) return;
    S.busy = true;
    document.body.classList.add("busy");
    try {
      const r = await api(`table/${S.tableId}/press`, { method: "POST", body: JSON.stringify({ data }) });
      const j = await r.json().catch(() => ({}));
      // the bot's answer to the press, in the player's words; a press it did not answer (away for a
      // restart: the playground's 502, its rate, a refusal) asks for the tap again, never in the
      // error's code. Nothing is sent again by itself: a second tap is judged by its seq.
      if (j.text) toast(j.text);
      else if (!r.ok) toast(ui("press_again"));
      S.selected = null;
      // the answer's screen is the whole payload, as a GET gives it; keys the press put under the
      // result (End the table: its confirmation) stand in for the result's own until the next screen
      if (j.screen && j.screen.screen && (!S.payload || j.screen.seq >= S.payload.seq)) {
        if (j.buttons && j.screen.result) j.screen.result = { ...j.screen.result, buttons: j.buttons };
        await show(j.screen);
      } else render();
    } catch (e) {
      toast(ui("press_again")); // no answer at all (the network, the bot away)
    } finally {
      S.busy = false;
      document.body.classList.remove("busy");
    }
  }

  async function show(payload) {
    const text = JSON.stringify(payload);
    if (S.payload && text === S.shown) return banner(""); // the same screen again (a reconnect, a press's answer)
    S.shown = text;
    const pic = payload.screen.picture || {};
    await loadWords(pic.lang || payload.lang, pic.ruleset || "kawuxing");
    const before = S.payload;
    const picked = selectedKey();
    S.payload = payload;
    const still = selectedKey();
    // a tile picked on another screen is no pick any more (its button may mean something else now)
    if (!picked || !still || JSON.stringify(picked.data) !== JSON.stringify(still.data)) S.selected = null;
    banner("");
    if (payload.screen.must_act && S.lastActSeq !== payload.screen.seq) {
      if (!before || !before.screen.must_act) haptic("turn");
      S.lastActSeq = payload.screen.seq;
    }
    render();
  }

  function parseEvent(chunk) {
    let event = "message";
    const data = [];
    for (const line of chunk.split("\n")) {
      if (line.startsWith(":")) continue;
      const i = line.indexOf(":");
      const field = i < 0 ? line : line.slice(0, i);
      const value = i < 0 ? "" : line.slice(i + 1).replace(/^ /, "");
      if (field === "event") event = value;
      else if (field === "data") data.push(value);
    }
    return { event, data: data.join("\n") };
  }

  async function stream() {
    for (;;) {
      const ctrl = new AbortController();
      const watchdog = setInterval(() => {
        if (Date.now() - S.lastData > 40000) ctrl.abort();
      }, 5000);
      let fatal = 0;
      try {
        S.lastData = Date.now();
        const r = await api(`table/${S.tableId}/events`, { signal: ctrl.signal });
        if ([401, 403, 404].includes(r.status)) fatal = r.status;
        else if (!r.ok || !r.body) throw new Error("events " + r.status);
        else {
          const reader = r.body.getReader();
          const decoder = new TextDecoder();
          let buf = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            S.lastData = Date.now();
            buf += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
            let cut;
            while ((cut = buf.indexOf("\n\n")) >= 0) {
              const { event, data } = parseEvent(buf.slice(0, cut));
              buf = buf.slice(cut + 2);
              if (event === "screen" && data) {
                S.backoff = 0;
                await show(JSON.parse(data));
              } else if (event === "gone") {
                fatal = 410;
                ctrl.abort();
              }
            }
          }
        }
      } catch (e) {
        /* dropped: reconnect below */
      } finally {
        clearInterval(watchdog);
      }
      if (fatal) return failed(fatal);
      banner(ui("reconnecting") || "…");
      S.backoff = Math.min(8000, S.backoff ? S.backoff * 2 : 500);
      await sleep(S.backoff);
    }
  }

  function failed(status) {
    const main = document.getElementById("app");
    // 404 (no such open table) and 410 (the stream's "gone": the table was closed) — the table is over
    const words = status === 404 || status === 410 ? ui("closed") : ui("failed");
    main.replaceChildren(el("p", "note failed", words || String(status)));
    document.body.dataset.failed = String(status);
  }

  // -- drawing -------------------------------------------------------------------------------------------
  function buttonKeys(screen) {
    const rows = (screen && screen.buttons) || [];
    const tiles = new Map();
    const toggles = [];
    const others = [];
    for (const row of rows) {
      const rest = [];
      for (const key of row) {
        if (key.web_app) continue; // "Open the table": this page itself
        if (key.on !== undefined) toggles.push(key);
        else if (key.tile && key.data) {
          if (!tiles.has(key.tile)) tiles.set(key.tile, key);
        } else rest.push(key);
      }
      if (rest.length) others.push(rest);
    }
    return { tiles, toggles, others };
  }

  function selectedKey() {
    if (!S.selected || !S.payload) return null;
    return buttonKeys(S.payload.screen).tiles.get(S.selected) || null;
  }

  function keyButton(key, cls) {
    if (key.url) {
      const a = el("a", "key " + (cls || ""), key.label);
      a.href = key.url;
      a.target = "_blank";
      a.rel = "noopener";
      return a;
    }
    const b = el("button", "key " + (cls || ""), key.label);
    b.type = "button";
    b.addEventListener("click", () => send(key.data));
    return b;
  }

  function meldTiles(meld, size) {
    const n = meld.kind === "pong" ? 3 : 4;
    const tiles = [];
    for (let i = 0; i < n; i++) {
      const hidden = meld.kind === "concealed_kong" && (meld.tile === null || i === 0 || i === 3);
      tiles.push(face(hidden ? null : meld.tile, null, size));
    }
    return el("span", "meld", tiles);
  }

  // the seats the table waits for, as the pictures mark them (render/blocks.py): the view's to_act,
  // else the seat whose turn it is; none once the hand is over
  function waitedOn(pub) {
    if (pub.phase === "over") return [];
    return pub.to_act.length ? pub.to_act : [pub.turn];
  }

  function seatPanel(pub, seat, names, ownView, opts) {
    const lb = labels();
    const s = pub.seats[seat];
    const over = pub.phase === "over";
    const turn = waitedOn(pub).includes(seat);
    const panel = el("section", "seat" + (turn ? " turn" : "") + (opts.own ? " own" : ""));
    panel.dataset.seat = seat;
    const name = names[seat] || fill(lb.seat_fallback, { n: seat + 1 });
    const mine = opts.own || (S.payload && S.payload.role === "seat" && S.payload.seat === seat);
    const head = el("div", "seat-head",
      pub.dealer === seat ? el("span", "badge dealer", lb.dealer) : null,
      opts.relative ? el("span", "badge relative", lb[opts.relative]) : null, // 下家 / 对家 / 上家, as the picture
      el("b", "name", name),
      turn ? el("span", "badge to-act", mine ? ui("your_turn") : fill(ui("turn_of"), { name })) : null,
      s.on_auto ? el("span", "badge auto", lb.auto) : null,
      s.liangdao ? el("span", "badge laid", lb.liangdao) : null,
      s.kong_money ? el("span", "money", fill(lb.kong, { v: signed(s.kong_money) })) : null,
      opts.total !== undefined ? el("span", "money", fill(lb.match_total, { v: signed(opts.total) })) : null);
    panel.append(head);
    const line = el("div", "seat-tiles");
    if (opts.hand) {
      // a finished hand's replay: the seat's hand face up (concealed tiles, then its melds)
      const [held, melds] = opts.hand;
      line.append(el("span", "revealed open", held.map((t) => face(t, null, "small"))));
      for (const m of melds) line.append(meldTiles(m, "small"));
    } else if (!opts.own) {
      const hiddenCount = s.concealed_count - s.revealed.length;
      if (s.revealed.length) line.append(el("span", "revealed", s.revealed.map((t) => face(t, null, "small"))));
      if (hiddenCount > 0) line.append(el("span", "backs", face(null, null, "mini"), el("span", "count", "\u00d7" + hiddenCount)));
    }
    if (!opts.own && !opts.hand) for (const m of s.melds) line.append(meldTiles(m, "small")); // own melds: beside the hand
    if (line.childNodes.length) panel.append(line);
    if (s.waits.length && !over) {
      panel.append(el("div", "waits", el("span", "label", lb.waits), s.waits.map((t) => face(t, null, "mini"))));
    }
    const last = pub.last_discard;
    const pond = el("div", "pond");
    s.discards.forEach((d, i) => {
      const isLast = last && last[0] === seat && i === s.discards.length - 1 && last[1] === d.tile;
      const img = face(d.tile, isLast ? "highlight" : d.claimed ? "dim" : null, "pond" + (isLast ? " last" : ""));
      if (d.liangdao) img.classList.add("declared");
      pond.append(img);
    });
    panel.append(pond);
    return panel;
  }

  function seatOrder(n, own) {
    const order = [];
    for (let i = 1; i <= n; i++) order.push((own + i) % n);
    return order; // the others after own (next, across, previous), own last
  }

  function topBar(pub, title) {
    const lb = labels();
    return el("header", "top",
      el("span", "title", title ? richText(title, "inline") : null),
      el("span", "wall", fill(lb.wall, { n: pub.wall_remaining })));
  }

  function handRow(screen, keys) {
    const view = screen.picture.view;
    const prot = new Set(screen.picture.protected || []);
    const danger = new Set(view.danger || []);
    const row = el("div", "hand");
    const tileButton = (tile, drawn) => {
      const key = keys.tiles.get(tile);
      const state = danger.has(tile) ? "danger" : null;
      const b = el("button", "hand-tile" + (drawn ? " drawn" : ""), face(tile, state, "big"));
      b.type = "button";
      b.dataset.tile = tile;
      b.setAttribute("aria-label", tileName(tile));
      if (prot.has(tile)) b.append(el("span", "lock", "\ud83d\udd12"));
      if (!key) b.disabled = true;
      else {
        if (S.selected === tile) b.classList.add("selected");
        b.addEventListener("click", () => {
          if (prot.has(tile) || S.selected === tile) return send(key.data);
          S.selected = tile;
          haptic("select");
          render();
        });
      }
      return b;
    };
    for (const t of view.concealed) row.append(tileButton(t, false));
    if (view.drawn) row.append(el("span", "gap"), tileButton(view.drawn, true));
    return layoutHand(row, view.concealed.length + (view.drawn ? 1 : 0));
  }

  // The page's width for the hand: the window's, up to the page's own (style.css `main`: 760 px
  // wide, 6 px padding each side).
  const handWidth = () => Math.min(document.documentElement.clientWidth || window.innerWidth, 760) - 12;
  const TAP_WIDTH = 44; // the narrowest tile a finger may tap (CSS px)

  // One row while each of the n tiles gets at least TAP_WIDTH; else two rows (a phone), as even as
  // can be (the drawn tile apart at the end of the second).
  function layoutHand(row, n) {
    if (n > 1 && (handWidth() - 10 - (n - 1) * 3) / n < TAP_WIDTH) {
      row.classList.add("rows");
      row.style.setProperty("--per-row", String(Math.ceil(n / 2)));
    }
    return row;
  }

  function revealRow(keys) {
    const row = el("div", "hand reveal");
    for (const key of keys.toggles) {
      const b = el("button", "hand-tile" + (key.on ? " shown" : " hidden"), face(key.tile, key.on ? null : "dim", "big"));
      b.type = "button";
      b.dataset.tile = key.tile;
      b.setAttribute("aria-pressed", key.on ? "true" : "false");
      b.setAttribute("aria-label", key.label);
      b.addEventListener("click", () => send(key.data));
      row.append(b);
    }
    return layoutHand(row, keys.toggles.length);
  }

  function countdown(node) {
    clearInterval(S.countdown);
    const deadline = S.payload && S.payload.deadline_ms;
    if (!deadline) return null;
    const bank = S.payload.bank_ms || 0;
    const span = el("span", "timer");
    const tick = () => {
      const now = Date.now();
      const left = Math.max(0, Math.ceil((deadline - now) / 1000));
      span.textContent = fill(ui("seconds"), { n: left });
      span.classList.toggle("bank", now >= bank); // his move's own time is gone: the time bank goes
    };
    tick();
    S.countdown = setInterval(tick, 1000);
    return span;
  }

  function lines(list, cls) {
    return list && list.length ? el("div", cls, list.map((t) => richText(t, "line"))) : null;
  }

  function seatScreen(p) {
    const screen = p.screen;
    const view = screen.picture.view;
    const pub = view.public;
    const names = screen.picture.names;
    const keys = buttonKeys(screen);
    const n = pub.seats.length;
    const order = seatOrder(n, view.seat);
    const main = el("main", "table seat-view");
    main.append(topBar(pub, screen.title));
    const others = el("div", "others");
    // where each sits from the player: the picture's word for it (picture.relative, render's rule)
    const relative = screen.picture.relative || [];
    for (const s of order.slice(0, -1)) others.append(seatPanel(pub, s, names, null, { relative: relative[s] }));
    main.append(others);
    const own = seatPanel(pub, view.seat, names, view, { own: true });
    main.append(own);
    main.append(el("div", "status", lines(screen.news, "news"), richText(screen.status, "status-line"), lines(screen.notes, "notes")));
    const actions = el("div", "actions");
    for (const row of keys.others) {
      const r = el("div", "key-row");
      row.forEach((k) => r.append(keyButton(k, screen.situation === "claim" || screen.situation === "rob" ? "claim" : "")));
      actions.append(r);
    }
    const t = screen.must_act || keys.others.length ? countdown() : null; // his time, when the hand waits on him
    if (t) actions.append(t);
    else clearInterval(S.countdown);
    main.append(actions);
    if (view.melds.length) main.append(el("div", "own-melds", view.melds.map((m) => meldTiles(m, "mid"))));
    main.append(keys.toggles.length ? revealRow(keys) : handRow(screen, keys));
    const key = selectedKey();
    main.append(el("p", "hint", key ? ui("tap_again") : "\u00a0"));
    syncTelegramButtons(key);
    return main;
  }

  function tableScreen(p) {
    const screen = p.screen;
    const pic = screen.picture;
    const pub = pic.view;
    const main = el("main", "table spectator-view");
    main.append(topBar(pub, screen.title || null));
    main.append(el("p", "note watching", ui("watching")));
    const n = pub.seats.length;
    for (let s = 0; s < n; s++) main.append(seatPanel(pub, s, pic.names, null, { total: pic.totals ? pic.totals[s] : undefined }));
    main.append(richText(screen.caption, "caption"));
    syncTelegramButtons(null);
    return main;
  }

  function lobbyScreen(p) {
    const main = el("main", "table lobby-view");
    main.append(richText(p.screen.text, "caption"));
    const actions = el("div", "actions");
    for (const row of p.screen.buttons || []) {
      const keys = row.filter((k) => !k.web_app);
      if (keys.length) actions.append(el("div", "key-row", keys.map((k) => keyButton(k, ""))));
    }
    main.append(actions);
    syncTelegramButtons(null);
    return main;
  }

  function resultPanel(result) {
    const lb = labels();
    const pic = result.picture;
    const res = pic.view.result;
    const panel = el("section", "result");
    panel.append(el("h2", null, res && res.outcome === "draw" ? lb.draw : lb.win));
    const winners = new Map(((res && res.winners) || []).map((w) => [w.seat, w]));
    pic.hands.forEach((hand, seat) => {
      // a winner's hand is the win's own (its 13 tiles before the winning one, its melds), as the
      // result picture draws it (render/result.py); the others' the tiles they held
      const w = winners.get(seat);
      const [held, melds] = w ? [w.concealed, w.melds] : hand;
      const delta = res ? res.deltas[seat] : 0;
      const row = el("div", "result-hand" + (w ? " winner" : ""),
        el("div", "result-head", el("b", null, pic.names[seat] || ""), el("span", "delta " + (delta > 0 ? "plus" : delta < 0 ? "minus" : ""), signed(delta))),
        el("div", "result-tiles", held.map((t) => face(t, null, "small")),
          w ? face(w.win_tile, "highlight", "small win") : null, melds.map((m) => meldTiles(m, "small"))));
      panel.append(row);
    });
    panel.append(richText(result.caption, "caption"));
    const buttons = el("div", "actions");
    for (const row of result.buttons || []) buttons.append(el("div", "key-row", row.map((k) => keyButton(k, "next"))));
    const replay = S.payload && S.payload.replay;
    if (replay && !S.replay) {
      const a = el("a", "key replay-link", ui("replay"));
      // the same page, the same signature; the live table kept for the way back
      const table = S.tableId ? `&table=${encodeURIComponent(S.tableId)}` : "";
      a.href = `?replay=${encodeURIComponent(replay)}${table}${location.hash}`;
      buttons.append(el("div", "key-row", a));
    }
    panel.append(buttons);
    return panel;
  }

  // -- the replay: a finished hand, moment by moment, every hand face up ------------------------------
  function replayScreen() {
    const R = S.replay;
    const frame = R.frames[R.at];
    const pub = frame.view;
    const main = el("main", "table replay-view");
    main.id = "app";
    main.dataset.moment = R.at;
    main.append(topBar(pub, null));
    const step = (d) => () => {
      R.at = Math.max(0, Math.min(R.frames.length - 1, R.at + d));
      if (R.at === R.frames.length - 1) stopPlaying();
      drawReplay();
    };
    const play = el("button", "key replay-play", ui(R.timer ? "pause" : "play"));
    play.type = "button";
    play.addEventListener("click", () => {
      if (R.timer) stopPlaying();
      else {
        if (R.at === R.frames.length - 1) R.at = 0;
        R.timer = setInterval(step(1), 1200);
      }
      drawReplay();
    });
    const back = el("button", "key replay-back", ui("step_back"));
    back.type = "button";
    back.disabled = R.at === 0;
    back.addEventListener("click", step(-1));
    const next = el("button", "key replay-next", ui("step"));
    next.type = "button";
    next.disabled = R.at === R.frames.length - 1;
    next.addEventListener("click", step(1));
    const actions = el("div", "actions", el("div", "key-row", back, play, next),
      el("p", "hint replay-at", fill(ui("moment"), { n: R.at + 1, total: R.frames.length })),
      lines(frame.said || [], "said")); // what this moment added to the table, in the server's words
    if (S.tableId) {
      // opened from a live table's result: the way back to it (Next hand waits there)
      const to = el("a", "key replay-table", ui("to_table"));
      to.href = tableHref();
      actions.append(el("div", "key-row", to));
    }
    main.append(actions);
    if (pub.result) {
      const picture = { view: pub, names: R.names, hands: frame.hands };
      main.append(resultPanel({ picture, caption: "", buttons: [] }));
    } else {
      pub.seats.forEach((_, s) => main.append(seatPanel(pub, s, R.names, null, { hand: frame.hands[s] })));
    }
    syncTelegramButtons(null);
    if (tg && tg.BackButton && S.tableId) tg.BackButton.show(); // Telegram's own back: to the table
    return main;
  }

  function stopPlaying() {
    if (S.replay && S.replay.timer) clearInterval(S.replay.timer);
    if (S.replay) S.replay.timer = null;
  }

  function drawReplay() {
    document.getElementById("app").replaceWith(replayScreen());
  }

  async function openReplay(which) {
    const r = await api(`replay/${which.table}/${which.hand}`);
    if (!r.ok) return failed(r.status);
    const j = await r.json();
    await loadWords(j.lang, j.ruleset);
    S.replay = { ...j, at: 0, timer: null };
    drawReplay();
  }

  function render() {
    const p = S.payload;
    if (!p || !S.words) return;
    const app = document.getElementById("app");
    const kind = p.screen.kind;
    const view = kind === "table" ? tableScreen(p) : kind === "lobby" ? lobbyScreen(p) : seatScreen(p);
    view.id = "app";
    view.dataset.seq = p.screen.seq;
    view.dataset.role = p.role;
    view.dataset.situation = p.screen.situation || p.screen.kind;
    if (p.result) view.prepend(resultPanel(p.result));
    app.replaceWith(view);
  }

  // -- start -----------------------------------------------------------------------------------------------
  async function main() {
    if (tg) {
      tg.ready();
      tg.expand();
      // a downward drag over the tiles must not close the table (Telegram 7.7+; older clients lack it)
      if (typeof tg.disableVerticalSwipes === "function") tg.disableVerticalSwipes();
      applyTheme();
      tg.onEvent("themeChanged", applyTheme);
      if (tg.MainButton) tg.MainButton.onClick(onMain);
      if (tg.BackButton) tg.BackButton.onClick(onBack);
    }
    S.tableId = tableId();
    const replay = replayParam();
    try {
      await loadWords(firstLang(), "kawuxing");
      document.getElementById("loading").textContent = ui("loading");
    } catch (e) {
      /* the screen's own language follows */
    }
    if (replay && initData()) {
      try {
        return await openReplay(replay);
      } catch (e) {
        return failed(0);
      }
    }
    if (!S.tableId || !initData()) return failed(400);
    try {
      const r = await api(`table/${S.tableId}`);
      if (!r.ok) return failed(r.status);
      await show(await r.json());
    } catch (e) {
      banner(ui("reconnecting"));
    }
    stream();
  }

  // a new width (a phone turned) may change the hand's rows; a new height (Telegram's viewport
  // expanded) changes nothing drawn
  let resized = 0;
  let width = handWidth();
  window.addEventListener("resize", () => {
    cancelAnimationFrame(resized);
    resized = requestAnimationFrame(() => {
      if (handWidth() !== width) render();
      width = handWidth();
    });
  });

  window.kwxPage = { state: S, render }; // for the tests
  main();
})();
