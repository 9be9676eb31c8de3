// A stand-in for the few Telegram.WebApp calls the page uses (docs/webapp.md), served only by the
// playground and the tests; production loads https://telegram.org/js/telegram-web-app.js.
// initData comes as Telegram passes it, in the URL's fragment (#tgWebAppData=<url-encoded initData>
// &tgWebAppThemeParams=<url-encoded JSON>), or from window.KWX_INIT_DATA. Calls are recorded in
// window.KWX_TELEGRAM_CALLS for the tests.
"use strict";
(() => {
  const hash = new URLSearchParams(location.hash.slice(1));
  const initData = window.KWX_INIT_DATA || hash.get("tgWebAppData") || "";
  const fields = new URLSearchParams(initData);
  const unsafe = {};
  for (const [k, v] of fields) {
    try {
      unsafe[k] = k === "user" || k === "receiver" || k === "chat" ? JSON.parse(v) : v;
    } catch (e) {
      unsafe[k] = v;
    }
  }
  let theme = {};
  try {
    theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}");
  } catch (e) {
    theme = {};
  }
  const dark = theme.bg_color ? parseInt(theme.bg_color.slice(1, 3), 16) < 128 : false;
  const calls = (window.KWX_TELEGRAM_CALLS = []);
  const record = (name, ...args) => calls.push([name, ...args]);
  const handlers = {};

  // Telegram draws its Main Button below the Mini App and its Back Button in its own header, over
  // nothing of the page: the stand-in keeps both in one bar at the bottom (Back at its left), never
  // floating over the hand
  const buttons = {};
  function layout() {
    document.documentElement.classList.toggle("tg-stub-with-back", Boolean(buttons.back && buttons.back.isVisible));
  }

  function bottomButton(kind) {
    const node = document.createElement("button");
    node.type = "button";
    node.className = "tg-stub-" + kind;
    node.hidden = true;
    const clicks = [];
    node.addEventListener("click", () => clicks.forEach((f) => f()));
    const attach = () => document.body && !node.isConnected && document.body.append(node);
    const api = {
      text: "",
      isVisible: false,
      setText(t) { api.text = t; node.textContent = kind === "back" ? "\u2190" : t; return api; },
      show() { attach(); api.isVisible = true; node.hidden = false; layout(); record(kind + ".show"); return api; },
      hide() { api.isVisible = false; node.hidden = true; layout(); return api; },
      onClick(f) { clicks.push(f); return api; },
      offClick(f) { const i = clicks.indexOf(f); if (i >= 0) clicks.splice(i, 1); return api; },
    };
    if (kind === "back") api.setText("");
    buttons[kind] = api;
    return api;
  }

  window.Telegram = {
    WebApp: {
      initData,
      initDataUnsafe: unsafe,
      themeParams: theme,
      colorScheme: dark ? "dark" : "light",
      platform: "kwx-stub",
      version: "8.0",
      ready() { record("ready"); },
      expand() { record("expand"); },
      onEvent(name, f) { (handlers[name] = handlers[name] || []).push(f); },
      offEvent(name, f) { handlers[name] = (handlers[name] || []).filter((g) => g !== f); },
      HapticFeedback: {
        impactOccurred(style) { record("haptic.impact", style); },
        notificationOccurred(type) { record("haptic.notification", type); },
        selectionChanged() { record("haptic.selection"); },
      },
      MainButton: bottomButton("main"),
      BackButton: bottomButton("back"),
    },
  };
})();
