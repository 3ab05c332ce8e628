// The club server's page (docs/server.md): pairing this browser's key, your games, a game
// to play.  No build step and nothing fetched from elsewhere: the board is the server's SVG,
// signing is the browser's own WebCrypto Ed25519, with a key that cannot leave the browser
// (generated non-extractable, kept in IndexedDB) and that your identity certified with
// `trv login --browser`.
"use strict";

const main = document.getElementById("main");
const statusLine = document.getElementById("status");
const SIGNATURE_PREFIX = "trvendetta signature 1\n";

// ------------------------------------------------------------------ the key, in IndexedDB
function db() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open("trv-club", 1);
    req.onupgradeneeded = () => req.result.createObjectStore("keys");
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
async function kept(name) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const req = d.transaction("keys").objectStore("keys").get(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}
async function keep(name, value) {
  const d = await db();
  return new Promise((resolve, reject) => {
    const tx = d.transaction("keys", "readwrite");
    tx.objectStore("keys").put(value, name);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
}

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
const unhex = (text) => new Uint8Array(text.match(/../g).map((h) => parseInt(h, 16)));
const b64 = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const unb64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
async function fingerprint(publicHex) {
  return hex(await crypto.subtle.digest("SHA-256", unhex(publicHex))).slice(0, 16);
}

// A signature this page sends: its own (64 bytes) and the delegation your identity signed
// (104 bytes), as one entry; `trv verify` checks both.
async function sign(text) {
  const me = await kept("me");
  const signature = await crypto.subtle.sign("Ed25519", me.keys.privateKey, new TextEncoder().encode(text));
  const whole = new Uint8Array(64 + 104);
  whole.set(new Uint8Array(signature), 0);
  whole.set(unb64(me.delegation), 64);
  return b64(whole);
}

// ------------------------------------------------------------------------------ HTTP
async function api(method, path, body) {
  const me = await kept("me");
  const headers = { "Accept": "application/json" };
  if (me && me.token) headers["Authorization"] = "Bearer " + me.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const doc = await resp.json().catch(() => ({ error: `${resp.status} ${resp.statusText}` }));
  if (!resp.ok) throw new Error(doc.error || `${resp.status}`);
  return doc;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}
function say(text, error) {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : "";
}

// --------------------------------------------------------------------------- pairing
async function pair(token) {
  const keys = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
  const publicHex = hex(await crypto.subtle.exportKey("raw", keys.publicKey));
  // the key is offered signed by itself (it is this page's), and the short code binds it to this pairing
  const said = new TextEncoder().encode(`trvendetta pairing key 1\n${token}\n${publicHex}`);
  const proof = b64(await crypto.subtle.sign("Ed25519", keys.privateKey, said));
  const got = await api("POST", `/api/pairings/${encodeURIComponent(token)}/key`, { public: publicHex, proof });
  const digest = new Uint8Array(await crypto.subtle.digest(
    "SHA-256", new TextEncoder().encode(`trvendetta pairing code 1\n${token}\n${publicHex}`)));
  const n = (((digest[0] << 24) >>> 0) + (digest[1] << 16) + (digest[2] << 8) + digest[3]) % 1000000;
  const code = `${String(Math.floor(n / 1000)).padStart(3, "0")} ${String(n % 1000).padStart(3, "0")}`;
  main.replaceChildren(
    el("h1", { text: `Pairing this browser for ${got.player}` }),
    el("p", { text: "This browser's key (it never leaves this browser):" }),
    el("p", { class: "fp", id: "fingerprint", text: await fingerprint(publicHex) }),
    el("p", { text: "Type this code where trv login --browser asks for it:" }),
    el("p", { class: "fp", id: "code", text: code }));
  for (;;) {
    const done = await api("POST", `/api/pairings/${encodeURIComponent(token)}/finish`, { public: publicHex });
    if (done.ready) {
      await keep("me", { keys, public: publicHex, player: done.player, token: done.token,
                         delegation: done.delegation, until: done.until, server: done.server });
      history.replaceState(null, "", "/");
      return home();
    }
    await new Promise((r) => setTimeout(r, 700));
  }
}

// ------------------------------------------------------------------------------ home
async function home() {
  const me = await kept("me");
  if (!me) {
    main.replaceChildren(el("h1", { text: "Not paired" }),
      el("p", { text: `Run: trv login --browser ${location.origin}/  and open the address it prints.` }));
    return;
  }
  document.getElementById("who").textContent = me.player;
  const doc = await api("GET", "/api/me");
  const rows = doc.games.map((g) => el("tr", {},
    el("td", {}, el("a", { href: `/play/${g.game}`, text: g.game })),
    el("td", { text: g.players.join(", ") }),
    el("td", { text: g.status === "over" ? `over${g.winner ? ": " + g.winner + " wins" : ""}` :
      g.waiting_for_dice ? "the host's dice" : g.waiting_on === me.player ? "your move" : `${g.waiting_on}'s move` })));
  const offers = doc.offers.map((o) => el("tr", {},
    el("td", { text: o.game }), el("td", { text: o.players.join(", ") }),
    el("td", {}, o.waiting_for.includes(me.player)
      ? el("button", { class: "join", "data-join": o.game, onclick: () => join(o.game), text: `Join ${o.game}` })
      : el("span", { text: "waiting for " + o.waiting_for.join(", ") }))));
  main.replaceChildren(
    el("h1", { text: "Your games" }),
    el("p", { id: "waiting", text: doc.waiting_on_you.length ? "Waiting on you: " + doc.waiting_on_you.join(", ")
      : "Nothing waits on you." }),
    el("table", {}, el("tr", {}, el("th", { text: "game" }), el("th", { text: "players" }), el("th", { text: "" })),
      ...rows, ...offers));
  watchList();
}

let listStream = null;
function watchList() {
  // offers becoming games: look again every few seconds while this list is shown
  if (listStream) clearTimeout(listStream);
  listStream = setTimeout(() => { if (location.pathname === "/") home().catch((e) => say(e.message, true)); }, 3000);
}

async function join(game) {
  const me = await kept("me");
  const offer = await api("GET", `/api/offers/${encodeURIComponent(game)}`);
  const value = hex(crypto.getRandomValues(new Uint8Array(32)));
  // the contribution's signed body: app/messages.py's Contribution with its sig empty
  const body = JSON.stringify({ type: "trv-host-join", offer: offer.id, seat: me.player, value, sig: "",
                                commit: offer.commit });
  const out = await api("POST", `/api/offers/${encodeURIComponent(game)}/join`, { value, signature: await sign(body) });
  say(out.waiting_for ? `joined ${game}; waiting for ${out.waiting_for.join(", ")}` : `${game} started`);
  if (!out.waiting_for) location.href = `/play/${game}`;
  else home();
}

// ------------------------------------------------------------------------------ a game
let current = null;
async function play(game) {
  const me = await kept("me");
  if (me) document.getElementById("who").textContent = me.player;
  await show(game);
  const stream = new EventSource(`/api/games/${encodeURIComponent(game)}/events`);
  stream.onmessage = (m) => {
    const got = JSON.parse(m.data);
    if (!current || got.version !== current.version) show(game).catch((e) => say(e.message, true));
  };
}

// show() runs for each stream message and after each move, so two can be in flight at once and their
// answers can arrive in either order: only the answer to the latest request asked so far is drawn
let asked = 0, drawn = 0;
async function show(game) {
  const mine = ++asked;
  const doc = await api("GET", `/api/games/${encodeURIComponent(game)}`);
  if (mine < drawn) return;  // a later request's answer is on the page already
  drawn = mine;
  current = doc;
  document.body.dataset.version = doc.version;
  const board = el("div", { class: "board", id: "board" });
  board.innerHTML = doc.svg;  // the server's drawing of the board (names are letters, digits, - _ .)
  let turn;
  if (doc.over) turn = el("div", { class: "turn", id: "turn", text: "Game over: " + doc.line.replace(/^game over: /, "") });
  else if (doc.waiting_for_dice) turn = el("div", { class: "turn", id: "turn", text: doc.waiting_for_dice });
  else {
    const p = doc.pending;
    const yours = p.player === doc.you;
    turn = el("div", { class: "turn" + (yours ? " yours" : ""), id: "turn",
      text: `${yours ? "Your move" : p.player + "'s move"}: ${p.kind}${p.prompt ? " (" + p.prompt + ")" : ""}` });
  }
  const clock = el("div", { id: "clock", text: doc.clock && doc.clock.deadline ? doc.clock.line + " (the server's clock)" : "" });
  const options = el("div", { class: "options", id: "options" });
  for (const o of doc.options) {
    options.append(el("button", { "data-action": o.action, onclick: (e) => act(game, doc, o, e.target), text: o.name }));
  }
  const log = el("pre", { class: "log", id: "log", text: doc.log.join("\n") });
  const links = el("p", {}, el("a", { href: `/replay/${game}`, target: "_blank", text: "replay viewer" }), " · ",
    el("a", { href: `/api/games/${game}/record`, text: "record" }), ` · event ${doc.version}`);
  main.replaceChildren(el("div", { class: "game" }, board,
    el("div", { class: "side" }, el("h2", { text: game, style: "margin:0" }), turn, clock, options, links, log)));
  log.scrollTop = log.scrollHeight;
  say("");
}

async function act(game, doc, option, button) {
  for (const b of document.querySelectorAll(".options button")) b.disabled = true;
  const text = `${SIGNATURE_PREFIX}${doc.domain}\n${doc.version + 1}\n${doc.head}\n${option.action}`;
  try {
    await api("POST", `/api/games/${encodeURIComponent(game)}/act`,
      { action: option.action, version: doc.version, signature: await sign(text) });
    say(`played: ${option.name}`);
    await show(game);
  } catch (e) {
    say(e.message, true);
    for (const b of document.querySelectorAll(".options button")) b.disabled = false;
  }
}

// ------------------------------------------------------------------------------ start
(async () => {
  try {
    const path = location.pathname;
    if (path === "/pair") return await pair(location.hash.slice(1));
    if (path.startsWith("/play/")) return await play(decodeURIComponent(path.slice(6)));
    return await home();
  } catch (e) {
    say(e.message, true);
  }
})();
