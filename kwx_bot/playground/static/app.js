// kwx playground page: polls /api/state for the chosen user and draws the chats that user sees.
"use strict";
const LABELS = {
  en: { you: "You are", language: "Language", operator: "Operator", restart: "Restart the bot",
        floodOn: "Flood (429): on", floodOff: "Flood (429): off", send: "Send", placeholder: "Message or /command",
        start: "Start", group: "group", private: "private chat with the bot", members: "members",
        bot: { running: "bot running", starting: "bot starting…", restarting: "bot restarting…", stopped: "bot stopped", exited: "bot exited (press Restart)" },
        noAnswer: "The bot did not answer (yet).", openedPrivate: "Opened the private chat with the bot.",
        unknownUser: (name) => `There is no user “${name}” in the playground. Choose one:`,
        stranger: "not in the group",
        strangerNote: (name, group) => `${name} is not a member of ${group}: Telegram shows ${name} only the private chat with the bot, and the bot seats only members at the group's table.`,
        download: "Download", gif: "GIF" },
  zh_CN: { you: "我是", language: "语言", operator: "运维", restart: "重启机器人",
        floodOn: "限流 (429)：开", floodOff: "限流 (429)：关", send: "发送", placeholder: "消息或 /命令",
        start: "开始", group: "群组", private: "与机器人的私聊", members: "成员",
        bot: { running: "机器人运行中", starting: "机器人启动中…", restarting: "机器人重启中…", stopped: "机器人已停止", exited: "机器人已退出（请按重启）" },
        noAnswer: "机器人（还）没有回应。", openedPrivate: "已打开与机器人的私聊。",
        unknownUser: (name) => `这里没有叫“${name}”的用户。请选择：`,
        stranger: "不在群里",
        strangerNote: (name, group) => `${name} 不是「${group}」的成员：Telegram 只给 ${name} 显示与机器人的私聊，机器人也只让群成员在群里的牌桌入座。`,
        download: "下载", gif: "GIF" },
};
const params = new URLSearchParams(location.search);
let me = params.get("user") || "Ann";
// ?lang=: en or zh_CN, also as a user would type it (zh, zh-CN, zh-Hans, en-US); anything else is
// the playground's own language
function pageLang(raw) {
  const l = (raw || "").toLowerCase();
  return l.startsWith("zh") ? "zh_CN" : l.startsWith("en") ? "en" : null;
}
let lang = pageLang(params.get("lang"));
let state = null;
const panels = new Map();

const $ = (sel, root = document) => root.querySelector(sel);
const L = () => LABELS[lang] || LABELS.en;

async function post(path, body) {
  const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
                                body: JSON.stringify(Object.assign({ user: me }, body)) });
  const data = await r.json().catch(() => ({}));
  if (!r.ok) toast(data.error || r.statusText, true);
  return data;
}

let toastTimer = null;
function toast(text, alert) {
  const el = $("#toast");
  el.textContent = text;
  el.className = "toast" + (alert ? " alert" : "");
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, alert ? 6000 : 2500);
}
$("#toast").addEventListener("click", () => { $("#toast").hidden = true; });

function startLink(url) {
  const m = /^https?:\/\/t\.me\/[A-Za-z0-9_]+\?start=([A-Za-z0-9_-]+)$/.exec(url || "");
  return m ? m[1] : null;
}

// The Mini App: a web_app button (the private hand message), a t.me/<bot>?startapp=t<N> link (the
// group's table message) or a t.me/<bot>?startapp=r<N>_<H> link (a hand's replay, /replay N) opens the
// page for the chosen user beside the chats, phone-sized (on a phone in the chats' place, style.css),
// with initData the playground signs as Telegram does.  Returns the /api/webapp query, or null.
function miniAppQuery(button) {
  if (button.web_app) {
    const t = new URL(button.web_app, location.href).searchParams.get("table");
    return t && /^\d+$/.test(t) ? `table=${t}` : null;
  }
  const m = /^https?:\/\/t\.me\/[A-Za-z0-9_]+\?startapp=(?:t(\d+)|(r\d+_\d+))$/.exec(button.url || "");
  return m ? (m[1] ? `table=${m[1]}` : `replay=${m[2]}`) : null;
}

async function openMiniApp(query) {
  const r = await fetch(`/api/webapp?user=${encodeURIComponent(me)}&${query}`, { cache: "no-store" });
  if (!r.ok) return toast(r.statusText, true);
  const { url } = await r.json();
  let panel = $("#miniapp");
  if (!panel) {
    panel = document.createElement("aside");
    panel.id = "miniapp";
    panel.innerHTML = '<div class="head"><b>kwx</b><button type="button" class="close">✕</button></div><iframe title="kwx"></iframe>';
    const chats = $("#chats");
    const back = chats.scrollTop; // a phone shows the panel in the chats' place: ✕ returns to where they were
    $(".close", panel).addEventListener("click", () => { panel.remove(); chats.scrollTop = back; });
    $("#chats").append(panel);
  }
  $("b", panel).textContent = me;
  $("iframe", panel).src = url;
}

async function press(chat, msg, button, el) {
  const query = miniAppQuery(button);
  if (query) return openMiniApp(query);
  if (button.url) {
    const payload = startLink(button.url);
    if (payload) { await post("/api/start", { payload }); toast(L().openedPrivate); refresh(); }
    else window.open(button.url, "_blank", "noopener");
    return;
  }
  el.classList.add("busy");
  const answer = await post("/api/press", { chat: chat.id, message: msg.id, data: button.data });
  el.classList.remove("busy");
  if (answer.opened) toast(L().openedPrivate);
  else if (answer.text) toast(answer.text, answer.alert);
  refresh();
}

function drawMessage(chat, msg) {
  const node = document.createElement("div");
  node.className = "msg" + (msg.mine ? " mine" : "") + (msg.bot ? " bot" : "");
  node.dataset.id = msg.id;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  if (chat.kind === "group" && !msg.mine) {
    const who = document.createElement("span");
    who.className = "who";
    who.textContent = msg.from;
    bubble.append(who);
  }
  if (msg.photo) {
    const img = document.createElement("img");
    img.src = msg.photo;
    if (msg.size) { img.width = msg.size[0]; img.height = msg.size[1]; }
    img.alt = "";
    bubble.append(img);
  }
  if (msg.animation) bubble.append(drawAnimation(msg.animation));
  if (msg.document) bubble.append(drawDocument(msg.document));
  const body = document.createElement("span");
  body.className = "text";
  body.innerHTML = msg.html;  // built server-side from the entities, every text escaped
  bubble.append(body);
  if (msg.edited) {
    const e = document.createElement("span");
    e.className = "edited";
    e.textContent = "✎ " + msg.edited;
    bubble.append(e);
  }
  node.append(bubble);
  if (msg.buttons.length) {
    const kb = document.createElement("div");
    kb.className = "kb";
    for (const row of msg.buttons) {
      const r = document.createElement("div");
      r.className = "row";
      for (const b of row) {
        const el = document.createElement("button");
        el.type = "button";
        el.textContent = b.text;
        if (b.web_app || miniAppQuery(b)) el.classList.add("webapp");
        else if (b.url) el.classList.add("url");
        else el.dataset.cb = b.data;
        el.addEventListener("click", () => press(chat, msg, b, el));
        r.append(el);
      }
      kb.append(r);
    }
    node.append(kb);
  }
  return node;
}

// An animation (sendAnimation) as Telegram shows it: inline, playing, marked GIF.
function drawAnimation(anim) {
  const box = document.createElement("div");
  box.className = "gif";
  const img = document.createElement("img");
  img.src = anim.url;
  if (anim.size) { img.width = anim.size[0]; img.height = anim.size[1]; }
  img.alt = anim.name;
  const tag = document.createElement("span");
  tag.className = "tag";
  tag.textContent = L().gif;
  box.append(img, tag);
  return box;
}

function fileSize(bytes) {
  if (bytes < 1024) return bytes + " B";
  if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + " KB";
  return (bytes / 1024 / 1024).toFixed(1) + " MB";
}

// A document (sendDocument) as Telegram shows it: a file icon, its name and size; a tap downloads it.
function drawDocument(doc) {
  const a = document.createElement("a");
  a.className = "file";
  a.href = doc.url;
  a.download = doc.name;
  a.title = L().download + " " + doc.name;
  const icon = document.createElement("span");
  icon.className = "icon";
  icon.textContent = (doc.name.split(".").pop() || "").slice(0, 4).toUpperCase() || "⤓";
  const info = document.createElement("span");
  info.className = "info";
  const name = document.createElement("b");
  name.className = "name";
  name.textContent = doc.name;
  const size = document.createElement("small");
  size.className = "size";
  size.textContent = fileSize(doc.bytes);
  info.append(name, size);
  a.append(icon, info);
  return a;
}

function panelFor(chat) {
  let p = panels.get(chat.id);
  if (p) return p;
  const root = document.createElement("section");
  root.className = "chat";
  root.dataset.kind = chat.kind;
  root.dataset.chat = chat.id;
  root.innerHTML = '<div class="head"><b></b><small></small></div><div class="log"></div>' +
    '<button class="startbtn" type="button" hidden></button>' +
    '<form class="compose"><input autocomplete="off"><button type="submit"></button></form>';
  const form = $(".compose", root);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const input = $("input", form);
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    await post("/api/send", { chat: chat.id, text });
    refresh();
  });
  $(".startbtn", root).addEventListener("click", async () => { await post("/api/start", {}); refresh(); });
  $("#chats").append(root);
  p = { root, log: $(".log", root), nodes: new Map() };
  panels.set(chat.id, p);
  return p;
}

function drawChat(chat) {
  const p = panelFor(chat);
  const l = L();
  $(".head b", p.root).textContent = chat.kind === "group" ? chat.title : chat.title + " · bot";
  $(".head small", p.root).textContent = chat.kind === "group" ? l.group : l.private;
  $(".compose input", p.root).placeholder = l.placeholder;
  $(".compose button", p.root).textContent = l.send;
  const startBtn = $(".startbtn", p.root);
  startBtn.textContent = l.start;
  startBtn.hidden = chat.started;
  const atBottom = p.log.scrollHeight - p.log.scrollTop - p.log.clientHeight < 40;
  const seen = new Set();
  let prev = null;
  for (const msg of chat.messages) {
    seen.add(msg.id);
    const key = JSON.stringify(msg);
    let entry = p.nodes.get(msg.id);
    if (!entry || entry.key !== key) {
      const node = drawMessage(chat, msg);
      if (entry) entry.node.replaceWith(node);
      else if (prev) prev.after(node);
      else p.log.prepend(node);
      entry = { key, node };
      p.nodes.set(msg.id, entry);
    }
    prev = entry.node;
  }
  for (const [id, entry] of p.nodes) {
    if (!seen.has(id)) { entry.node.remove(); p.nodes.delete(id); }
  }
  if (atBottom) p.log.scrollTop = p.log.scrollHeight;
}

function drawBar() {
  const l = L();
  $(".op").hidden = false;
  document.documentElement.lang = lang === "zh_CN" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-l]")) el.textContent = l[el.dataset.l];
  const flood = $("#flood");
  flood.textContent = state.flood ? l.floodOn : l.floodOff;
  flood.classList.toggle("on", state.flood);
  $("#botstate").textContent = l.bot[state.bot] || state.bot;
  fillUsers(state.users, state.strangers || []);
  $("#user").value = me;
  $("#lang").value = lang;
  const note = $("#note");
  const stranger = (state.strangers || []).includes(me);
  note.hidden = !stranger;
  if (stranger) note.textContent = l.strangerNote(me, state.group);
}

function fillUsers(users, strangers) {
  const sel = $("#user");
  const labels = users.map((u) => strangers.includes(u) ? `${u} (${L().stranger})` : u);
  if ([...sel.options].map((o) => o.text).join() === labels.join()) return;
  sel.innerHTML = "";
  users.forEach((u, i) => sel.add(new Option(labels[i], u)));
}

// ?user= names nobody: say so on the page (the API says why) and offer the preset users.
function showUnknownUser(error) {
  if (lang === null) lang = LABELS[error.lang] ? error.lang : "en";
  const l = L();
  document.documentElement.lang = lang === "zh_CN" ? "zh-CN" : "en";
  for (const el of document.querySelectorAll("[data-l]")) el.textContent = l[el.dataset.l];
  fillUsers(error.users, []);
  $(".op").hidden = true;  // no state, so no operator's buttons to show
  $("#user").value = "";
  $("#lang").value = lang;
  let box = $("#unknown");
  if (!box) {
    box = document.createElement("section");
    box.id = "unknown";
    box.className = "unknown";
    $("#chats").replaceChildren(box);
    panels.clear();
  }
  const text = document.createElement("p");
  text.textContent = l.unknownUser(error.unknown_user);
  const links = document.createElement("p");
  for (const u of error.users) {
    const q = new URLSearchParams(location.search);
    q.set("user", u);
    const a = document.createElement("a");
    a.href = "?" + q.toString();
    a.textContent = u;
    links.append(a, " ");
  }
  box.replaceChildren(text, links);
}

let inflight = false;
async function refresh() {
  if (inflight) return;
  inflight = true;
  try {
    const r = await fetch("/api/state?user=" + encodeURIComponent(me), { cache: "no-store" });
    if (!r.ok) {
      const error = await r.json().catch(() => null);
      if (error && error.unknown_user !== undefined) showUnknownUser(error);
      return;
    }
    state = await r.json();
    if (state.me !== me) {  // ?user=ann is Ann: the page and its address use the preset's name
      me = state.me;
      const q = new URLSearchParams(location.search);
      q.set("user", me);
      history.replaceState(null, "", "?" + q.toString());
    }
    if (lang === null) lang = state.lang;
    else if (lang !== state.lang) await post("/api/lang", { lang });
    drawBar();
    for (const chat of state.chats) drawChat(chat);
  } catch (e) {
    $("#botstate").textContent = "…";
  } finally {
    inflight = false;
  }
}

$("#user").addEventListener("change", (ev) => {
  const q = new URLSearchParams(location.search);
  q.set("user", ev.target.value);
  q.delete("lang");
  location.search = q.toString();
});
$("#lang").addEventListener("change", async (ev) => {
  lang = ev.target.value;
  await post("/api/lang", { lang });
  for (const p of panels.values()) { p.log.innerHTML = ""; p.nodes.clear(); }
  refresh();
});
$("#flood").addEventListener("click", async () => { await post("/api/flood", { on: !state.flood }); refresh(); });
$("#restart").addEventListener("click", async () => {
  $("#botstate").textContent = L().bot.restarting;
  await post("/api/restart", {});
  refresh();
});
// Chromium keeps a □ for text it laid out before a fallback font arrived (the page's CJK font,
// style.css): load that font before the first drawing (waiting at most 3 s), then name the page.
Promise.race([
  document.fonts.load('600 15px "Kwx CJK"', "卡五星").catch(() => null),
  new Promise((resolve) => setTimeout(resolve, 3000)),
]).then(async () => {
  $(".brand").textContent = "卡五星 kwx";
  await refresh();
  // a table named in the address (?table=N) opens once the user's language is settled: the page speaks it
  if (params.get("table") && /^\d+$/.test(params.get("table"))) openMiniApp(`table=${params.get("table")}`);
  setInterval(refresh, 700);
});
