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
  if (!me.delegation) return b64(signature);  // a key signed up in this browser: the player's own
  whole.set(new Uint8Array(signature), 0);
  whole.set(unb64(me.delegation), 64);
  return b64(whole);
}

// ------------------------------------------------------------------------ signing up
// A player without the CLI: this browser makes an Ed25519 key (extractable, so it can be
// exported for backup) and logs in with it as `trv login` does: the first login of a name
// binds the name to its key on this server.  Its signatures are then the player's own.
async function signUp(name) {
  const keys = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  const publicHex = hex(await crypto.subtle.exportKey("raw", keys.publicKey));
  const got = await api("GET", "/api/challenge");
  const said = new TextEncoder().encode(`trvendetta login 1\n${got.server}\n${got.challenge}`);
  const signature = b64(await crypto.subtle.sign("Ed25519", keys.privateKey, said));
  const out = await api("POST", "/api/login", { name, public: publicHex, challenge: got.challenge, signature });
  await keep("me", { keys, public: publicHex, player: out.name, token: out.token, server: got.server });
  say(`signed up as ${out.name}: this browser's key is your identity; export it to keep a copy`, false, "ok");
  return home();
}

async function exportKey() {
  const me = await kept("me");
  const pkcs8 = b64(await crypto.subtle.exportKey("pkcs8", me.keys.privateKey));
  const text = `trv club identity\nplayer ${me.player}\nserver ${me.server}\npublic ${me.public}\n` +
    `-----BEGIN PRIVATE KEY-----\n${pkcs8}\n-----END PRIVATE KEY-----\n`;
  const link = el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/plain" })),
    download: `${me.player}-trv-club-key.pem`, text: "download" });
  link.click();
}

// ------------------------------------------------------------------------------ HTTP
// Every request says what went wrong in words: a network failure is a lost connection (never
// "Failed to fetch"), a refusal is the server's own message.  The server's Date header gives
// the offset of its clock, the reference of the countdown.
let serverOffset = 0;
let requests = 0, failedAt = 0;  // a request's answer says the connection is back only if asked after the failure
async function api(method, path, body) {
  const n = ++requests;
  const me = await kept("me");
  const headers = { "Accept": "application/json" };
  if (me && me.token) headers["Authorization"] = "Bearer " + me.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    failedAt = n;
    connection(false);
    throw new Error("the server cannot be reached: the connection is lost (the page tries again)");
  }
  if (n > failedAt) connection(true);
  const date = Date.parse(resp.headers.get("Date") || "");
  if (!isNaN(date)) serverOffset = date - Date.now();
  const doc = await resp.json().catch(() => ({ error: `the server answered ${resp.status} ${resp.statusText}` }));
  if (!resp.ok) throw new Error(doc.error || `the server answered ${resp.status}`);
  return doc;
}

// the connection state, in the header: live, or lost and reconnecting
function connection(up) {
  const node = document.getElementById("conn");
  if (!node) return;
  node.dataset.state = up ? "live" : "lost";
  node.textContent = up ? "connected" : "connection lost, reconnecting…";
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
function say(text, error, kind) {
  statusLine.textContent = text;
  statusLine.className = error ? "error" : (kind || "");
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
    const form = el("form", { id: "signup", class: "offer" },
      el("label", {}, "your player name", el("input", { name: "name", id: "signup-name", required: "" })),
      el("button", { type: "submit", id: "signup-send", text: "Sign up in this browser" }));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      signUp(new FormData(form).get("name")).catch((err) => say(err.message, true));
    });
    main.replaceChildren(el("h1", { text: "Not signed in" }),
      el("p", { text: "Play in this browser: it makes a key that is your identity on this server." }), form,
      el("p", { text: `Or, with the CLI: trv login --browser ${location.origin}/  and open the address it prints.` }));
    return;
  }
  document.getElementById("who").textContent = me.player;
  const doc = await api("GET", "/api/me");
  const waits = (g) => g.status !== "over" && !g.waiting_for_dice && g.waiting_on === me.player;
  // the games waiting on you first, then the offers waiting for your contribution, then the rest
  const games = [...doc.games.filter(waits), ...doc.games.filter((g) => !waits(g))];
  const rows = games.map((g) => el("tr", { class: waits(g) ? "yours" : "" },
    el("td", {}, el("a", { href: `/play/${g.game}`, text: g.game })),
    el("td", { text: g.players.join(", ") }),
    el("td", { text: g.status === "over" ? `over${g.winner ? ": " + g.winner + " wins" : ""}` :
      g.waiting_for_dice ? "the host's dice" : g.waiting_on === me.player ? "your move" : `${g.waiting_on}'s move` })));
  const offers = doc.offers.map((o) => el("tr", { class: o.waiting_for.includes(me.player) ? "yours" : "" },
    el("td", { text: o.game, title: (o.terms || []).join("\n") }),
    el("td", {}, el("span", { text: o.players.join(", ") }),
      el("ul", { class: "terms" }, ...(o.terms || []).map((t) => el("li", { text: t })))),
    el("td", {}, o.waiting_for.includes(me.player)
      ? el("button", { class: "join", "data-join": o.game, onclick: () => join(o.game), text: `Join ${o.game}` })
      : el("span", { text: "waiting for " + o.waiting_for.join(", ") + " " }),
      el("button", { class: "aside", "data-decline": o.game, text: o.joined.includes(me.player) ? "Withdraw" : "Decline",
        onclick: (e) => confirmStep(e.target, `Decline ${o.game}? It will not be played.`, "Yes, decline",
                                    () => declineOffer(o.game)) }))));
  const mine = offers.filter((r) => r.className), others = offers.filter((r) => !r.className);
  const yoursFirst = [...rows.filter((r) => r.className), ...mine, ...rows.filter((r) => !r.className), ...others];
  main.replaceChildren(
    el("h1", { text: "Your games" }),
    el("p", { id: "waiting", text: doc.waiting_on_you.length ? "Waiting on you: " + doc.waiting_on_you.join(", ")
      : "Nothing waits on you." }),
    ...(doc.declined || []).map((d) => el("p", { class: "declined", "data-declined": d.game,
      text: `${d.by === me.player ? "You" : d.by} declined the offer ${d.game}: it will not be played.` })),
    el("table", { id: "games" }, el("tr", {}, el("th", { text: "game" }), el("th", { text: "players" }), el("th", { text: "" })),
      ...yoursFirst),
    offerForm(me),
    me.delegation ? "" : el("p", {}, "This browser's key is your identity: ",
      el("button", { id: "export", onclick: () => exportKey().catch((e) => say(e.message, true)),
        text: "Export it (a backup)" })));
  document.title = (doc.waiting_on_you.length ? `(${doc.waiting_on_you.length}) ` : "") + "trv club";
  watchList();
}

// offering a game from the page: POST /api/games, and this page's contribution to its seed
function offerForm(me) {
  const field = (label, name, value, hint) => el("label", {}, label,
    el("input", { name, value, placeholder: hint || "", id: `offer-${name}` }));
  const form = el("form", { class: "offer", id: "offer" },
    field("you", "me", `${me.player}:red:cars`, "name:colour:crew"),
    field("opponent(s), comma-separated", "others", "", "bob:blue:cars"),
    field("bot seats the server plays, comma-separated", "bots", "", "greedy:blue:cars (random, greedy, front, search)"),
    field("ruleset", "ruleset", "vendetta"),
    field("time (e.g. 3d or 7d+1d; empty: none)", "time", ""),
    field("game name (optional)", "name", ""),
    el("button", { type: "submit", id: "offer-send", text: "Offer the game" }));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const players = [f.get("me"), ...String(f.get("others")).split(",")].map((p) => p.trim()).filter(Boolean);
    try {
      const bots = String(f.get("bots") || "").split(",").map((b) => b.trim()).filter(Boolean);
      const body = { players, bots, ruleset: f.get("ruleset") || "vendetta", time: f.get("time") || "" };
      if (f.get("name")) body.name = f.get("name");
      const out = await api("POST", "/api/games", body);
      const game = out.game || body.name;
      say(`offered ${game}; your contribution to its seed…`);
      await join(game);
    } catch (err) {
      say(err.message, true);
    }
  });
  return el("div", {}, el("h2", { text: "Offer a game" }), form);
}

// a step that cannot be taken back (resign, decline, claim) asks first, in words, beside its button
function confirmStep(button, question, yes, doIt) {
  const old = document.getElementById("ask");
  if (old) old.remove();
  const box = el("span", { class: "confirm", id: "ask" }, el("span", { id: "question", text: question + " " }),
    el("button", { id: "ask-yes", class: "send", text: yes, onclick: async () => {
      for (const b of box.querySelectorAll("button")) b.disabled = true;
      try { await doIt(); } catch (err) { say(err.message, true); } finally { box.remove(); }
    } }),
    el("button", { id: "ask-no", text: "Cancel", onclick: () => { box.remove(); say("cancelled: nothing was sent"); } }));
  button.after(box);
}

async function declineOffer(game) {
  await api("POST", `/api/offers/${encodeURIComponent(game)}/decline`, {});
  say(`you declined ${game}: the offer is withdrawn and will not be played`, false, "ok");
  await home();
}

const stamp = () => new Date(Date.now() + serverOffset).toISOString().replace(/\.\d+Z$/, "Z");

// resigning: a trv-resign record (server.club.resign_payload's bytes) signed at its place in the chain
async function resign(game) {
  const me = await kept("me");
  const doc = await api("GET", `/api/games/${encodeURIComponent(game)}`);
  const at = stamp();
  const payload = JSON.stringify({ type: "trv-resign", seat: me.player, after: doc.version, after_hash: doc.head, at });
  const text = `${SIGNATURE_PREFIX}${doc.domain}\n${doc.version + 1}\n${doc.head}\n${payload}`;
  const out = await api("POST", `/api/games/${encodeURIComponent(game)}/resign`,
    { version: doc.version, at, signature: await sign(text) });
  say(`you resigned ${game}: ${out.ended.replace(/^game over: /, "")}`, false, "ok");
  await show(game, true);
}

// a claim on time: the server decides it by its own clock and signs it as the host
async function claim(game) {
  const out = await api("POST", `/api/games/${encodeURIComponent(game)}/claim`, {});
  say(`claimed on time: ${out.ended.replace(/^game over: /, "")}`, false, "ok");
  await show(game, true);
}

function endings(game, doc) {
  if (doc.over || !doc.you || !doc.players.includes(doc.you)) return "";
  const box = el("div", { class: "endings", id: "endings" });
  box.append(el("button", { id: "resign", class: "aside", text: "Resign",
    onclick: (e) => confirmStep(e.target, `Resign ${game}? You lose the game.`, "Yes, resign", () => resign(game)) }));
  const c = doc.clock;
  if (c && c.deadline && c.seat !== doc.you) {
    box.append(el("button", { id: "claim", class: "aside", text: `Claim on time (${c.seat}'s deadline)`,
      onclick: (e) => confirmStep(e.target, `Claim ${game} on time? The server's clock decides; ` +
        `${c.seat} loses if the deadline has passed.`, "Yes, claim", () => claim(game)) }));
  }
  return box;
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
// The board is the server's drawing; the page marks on it what the server's API says: the
// vehicles a decision can move, the spaces a move reaches (GET /api/games/G/reach: the
// ruleset's own legal actions played ahead), the path picked, and the spaces a piece can be
// placed on.  A path is only sent once confirmed: one signed action at a time, each checked
// against the options the server lists at that point.
let current = null;
let stream = null;
let plan = null;      // {vehicle, option, reach, space, way}: what is picked and not sent
let sending = false;
async function play(game) {
  const me = await kept("me");
  if (me) document.getElementById("who").textContent = me.player;
  await show(game);
  follow(game);
  setInterval(tick, 1000);
}

function follow(game) {
  if (stream) stream.close();
  stream = new EventSource(`/api/games/${encodeURIComponent(game)}/events`);
  stream.onopen = () => connection(true);
  stream.onerror = () => connection(false);  // the browser reconnects by itself; the header says so
  stream.onmessage = (m) => {
    const got = JSON.parse(m.data);
    if (!sending && (!current || got.version !== current.version)) show(game).catch((e) => say(e.message, true));
  };
}

const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const node = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// show() runs for each stream message and after each move, so two can be in flight at once and their
// answers can arrive in either order: only the answer to the latest request asked so far is drawn
let asked = 0, drawn = 0;
async function show(game, redraw) {
  const mine = ++asked;
  const doc = await api("GET", `/api/games/${encodeURIComponent(game)}`);
  if (mine < drawn) return;  // a later request's answer is on the page already
  // the same version again (a stream message and a move's own show): the page shows it already
  if (!redraw && current && current.version === doc.version && main.querySelector(".game")) return;
  drawn = mine;
  const moved = !current || current.version !== doc.version;
  current = doc;
  if (moved) plan = null;
  document.body.dataset.version = doc.version;
  const yours = !doc.over && !doc.waiting_for_dice && doc.pending && doc.pending.player === doc.you;
  document.body.dataset.yours = yours ? "1" : "";
  const board = el("div", { class: "board", id: "board" });
  board.innerHTML = doc.svg;  // the server's drawing of the board (names are letters, digits, - _ .)
  fitBoard(board);
  let turn;
  if (doc.over) turn = el("div", { class: "turn", id: "turn", text: "Game over: " + doc.line.replace(/^game over: /, "") });
  else if (doc.waiting_for_dice) turn = el("div", { class: "turn", id: "turn", text: doc.waiting_for_dice });
  else {
    const p = doc.pending;
    turn = el("div", { class: "turn" + (yours ? " yours" : ""), id: "turn",
      text: `${yours ? "Your move" : p.player + "'s move"}: ${p.kind}${p.prompt ? " (" + p.prompt + ")" : ""}` });
  }
  const clock = el("div", { id: "clock", class: "clock" });
  const picked = el("div", { id: "picked", class: "picked" });
  const options = el("div", { class: "options", id: "options" });
  const log = el("pre", { class: "log", id: "log", text: doc.log.join("\n") });
  const links = el("p", { class: "links" }, el("a", { href: `/replay/${game}`, target: "_blank", text: "replay viewer" }), " · ",
    el("a", { href: `/api/games/${game}/record`, text: "record" }), ` · event ${doc.version}`);
  // the side: what to do now, then the dashboards and the log (side by side when the side is wide)
  const frame = el("div", { class: "game" }, board,
    el("div", { class: "side" },
      el("div", { class: "play" }, el("h2", { text: game, class: "name" }), turn, clock, picked, options,
        endings(game, doc)),
      el("div", { class: "record" }, dashboards(doc), links, log)));
  const w = board.querySelector("svg") ? parseFloat(board.querySelector("svg").dataset.w) : 0;
  if (w) frame.style.setProperty("--board", `${Math.round(w * 1.6) + 18}px`);  // the drawing's room, its scroll bar
  main.replaceChildren(frame);
  readable(board);
  log.scrollTop = log.scrollHeight;
  document.title = (yours ? "● Your move · " : "") + `${game} · trv club`;
  if (yours && moved) notify(`${game}: your move`, doc.pending.prompt || doc.pending.kind);
  focusBoard(board, doc);
  if (doc.over && moved) boardInView();  // the game's end: its last position
  tick();
  document.body.dataset.ready = "";
  await decide(game);
  if (current === doc) document.body.dataset.ready = doc.version;  // the board is marked for this version
}

// the board fills its column: the drawing's road, with the dashboards as the page's own (below)
function fitBoard(board) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const status = svg.querySelector("g.status text");
  const w = status ? parseFloat(status.getAttribute("x")) - 12 : parseFloat(svg.getAttribute("width"));
  const h = parseFloat(svg.getAttribute("height"));
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.removeAttribute("height");
  svg.setAttribute("width", "100%");
  svg.style.maxWidth = `${Math.round(w * 1.6)}px`;
  svg.dataset.w = w;
}

// never smaller than readable: the board's labels (space names, rows, lanes, tiles) are drawn at
// READABLE_PX or more on the screen, however narrow it is (the board scrolls then)
const READABLE_PX = 10;
function readable(board) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const sizes = Array.from(svg.querySelectorAll("text.lbl, text.tile"), (t) => parseFloat(getComputedStyle(t).fontSize))
    .filter((px) => px > 0);
  const smallest = sizes.length ? Math.min(...sizes) : READABLE_PX;
  svg.style.minWidth = `${Math.ceil(parseFloat(svg.dataset.w) * Math.max(1, READABLE_PX / smallest))}px`;
}

// on a phone the controls are under the board: a decision made on the board, and the game's end,
// bring the board back into view when less than half of it is on the screen
function boardInView() {
  if (!matchMedia("(max-width: 800px)").matches) return;
  const r = document.getElementById("board").getBoundingClientRect();
  if (Math.min(r.bottom, innerHeight) - Math.max(r.top, 0) < r.height / 2) window.scrollBy(0, r.top);
}

// the board scrolls to where the game is: your vehicle to move, else the last moved, else yours
function focusBoard(board, doc) {
  const svg = board.querySelector("svg");
  if (!svg) return;
  const you = doc.you ? `[data-owner="${doc.you}"]` : "";
  const on = svg.querySelector(`g.vehicle.selected`) || svg.querySelector("circle.lit") ||
    svg.querySelector(`g.vehicle${you}:not([data-at=start]):not([data-status=eliminated])`) || svg.querySelector(`g.vehicle${you}`);
  if (!on) return;
  const box = on.getBoundingClientRect(), frame = board.getBoundingClientRect();
  board.scrollTop += box.top - frame.top - frame.height / 2 + box.height / 2;
  board.scrollLeft += box.left - frame.left - frame.width / 2 + box.width / 2;
}

const PIPS = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
function dashboards(doc) {
  const view = doc.view || {};
  const box = el("div", { class: "dashboards", id: "dashboards" });
  for (const p of view.players || []) {
    const dice = (p.dice || []).map((d) => el("span", { class: "die", title: `die ${d}`, text: PIPS[d] || String(d) }));
    const rows = (view.vehicles || []).filter((v) => v.owner === p.name).map((v) => {
      const dmg = Array.isArray(v.damage) ? v.damage.length : (v.damage || 0);
      return el("li", { "data-vehicle": v.id, text:
        `${v.id}: ${v.status === "eliminated" ? "eliminated" : (v.at || "off the board")}` +
        `${v.status && v.status !== "operational" && v.status !== "eliminated" ? ", " + v.status : ""}` +
        `${dmg ? `, ${dmg} damage` : ""}` });
    });
    const extra = [];
    if (p.command_used !== undefined) extra.push(p.command_used ? "command used" : "command ready");
    const scrap = view.scrap && view.scrap[p.name];
    if (scrap !== undefined) extra.push(`scrap: ${scrap}`);
    const favors = view.favors && view.favors[p.name];
    if (favors) extra.push(favors.kinds ? `favors: ${favors.kinds.join(", ") || "none"}`
                                        : `favors: ${favors.count} face down`);
    const weapons = view.super_weapons && view.super_weapons[p.name];
    if (weapons) extra.push(`super weapons: ${[].concat(weapons).map((w) => typeof w === "object" ? w.kind || JSON.stringify(w) : w).join(", ")}`);
    box.append(el("div", { class: "dash" + (doc.pending && doc.pending.player === p.name ? " on" : ""), "data-player": p.name },
      el("div", { class: "who" }, el("span", { class: "swatch", style: `background:${p.color}` }),
        el("b", { text: p.name }), ` ${p.crew || ""}${p.out ? " (out)" : ""}`),
      el("div", { class: "dice" }, "dice ", ...(dice.length ? dice : [el("span", { text: "–" })])),
      extra.length ? el("div", { text: extra.join(" · ") }) : "",
      el("ul", {}, ...rows)));
  }
  return box;
}

// the countdown of the deadline, by the server's clock
function tick() {
  const node = document.getElementById("clock");
  if (!node || !current) return;
  const c = current.clock;
  if (!c || !c.deadline || current.over) { node.textContent = c && c.line ? c.line : ""; return; }
  const left = Date.parse(c.deadline) - (Date.now() + serverOffset);
  const s = Math.max(0, Math.floor(left / 1000));
  const d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600), m = Math.floor(s % 3600 / 60), sec = s % 60;
  const text = (d ? `${d}d ` : "") + `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  node.dataset.left = s;
  node.className = "clock" + (s < 3600 ? " short" : "");
  node.textContent = `${c.seat === current.you ? "your" : c.seat + "'s"} time: ${text} left`;
}

function notify(title, body) {
  if (document.hasFocus() || !("Notification" in window) || Notification.permission !== "granted") return;
  try { new Notification(title, { body }); } catch (e) { /* a browser without page notifications */ }
}

// what the player can do now: vehicles to pick, spaces to reach, or the options in words
async function decide(game) {
  const doc = current;
  const options = document.getElementById("options");
  const picked = document.getElementById("picked");
  const svg = document.querySelector("#board svg");
  const decoded = doc.options.map((o) => JSON.parse(o.action));
  const kind = doc.pending ? doc.pending.kind : "";
  for (const g of svg ? svg.querySelectorAll("g.vehicle") : []) g.addEventListener("click", () => pickVehicle(game, g.dataset.id));
  if (!doc.options.length) return;
  // each option's note and, for a piece put on a space, the space on the board
  const more = await api("GET", `/api/games/${encodeURIComponent(game)}/options`);
  if (more.version !== doc.version || current !== doc) return;
  const frame = svg ? svg.viewBox.baseVal : null;  // a space off the drawing stays a button
  const places = more.options.filter((o) => o.xy && frame && o.xy[0] >= 0 && o.xy[1] >= 0 &&
    o.xy[0] <= frame.width && o.xy[1] <= frame.height);
  doc.notes = Object.fromEntries(more.options.map((o) => [o.action, o.note]));
  if ("Notification" in window && Notification.permission === "default") {
    picked.before(el("button", { class: "aside", id: "notify", text: "Tell me when it is my move",
      onclick: (e) => { Notification.requestPermission(); e.target.remove(); } }));
  }
  // the vehicles this decision can move
  const movable = new Set(decoded.filter((a) => a.car).map((a) => a.car));
  for (const id of movable) {
    const g = svg && svg.querySelector(`g.vehicle[data-id="${id}"]`);
    if (g) g.classList.add("movable");
  }
  if (movable.size || places.length) boardInView();
  if (kind === "step" && !plan) {
    plan = { vehicle: null, option: null, reach: null };
    await loadReach(game, null);
    return;
  }
  if (plan && plan.vehicle) return drawPlan(game);
  if (places.length) {
    picked.textContent = "Click a space on the board to place it.";
    for (const p of places) {
      const mark = svgEl("circle", { class: "place", "data-space": p.at, cx: p.xy[0], cy: p.xy[1], r: 9 });
      mark.append(svgEl("title", {}));
      mark.firstChild.textContent = p.name;
      mark.addEventListener("click", () => {
        plan = { place: p };
        confirmBox(game, [p.action], `${p.name}`, () => { plan = null; show(game, true); say("taken back: nothing was sent"); });
        for (const m of svg.querySelectorAll(".place.chosen")) m.classList.remove("chosen");
        mark.classList.add("chosen");
      });
      svg.append(mark);
    }
  }
  if (movable.size) picked.textContent = "Click one of your highlighted vehicles to move it.";
  for (let i = 0; i < doc.options.length; i++) {
    const o = doc.options[i];
    if (decoded[i].at && places.some((p) => p.action === o.action)) continue;  // placed on the board
    options.append(optionButton(game, doc, o));
  }
}

function optionButton(game, doc, o) {
  const note = doc.notes && doc.notes[o.action];
  return el("button", { "data-action": o.action, class: note && /fatal/.test(note) ? "fatal" : "",
    onclick: (e) => act(game, doc, o, e.target), text: words(o.name) + (note ? ` (${note})` : "") });
}

// an option's name with its effect said in words (the ruleset's own name first)
function words(name) {
  let m;
  if ((m = name.match(/^assign (\d+) to (\S+)$/))) return `${name}: ${m[2]} moves ${m[1]} spaces`;
  if (name === "no-command") return "no-command: move without a command";
  if ((m = name.match(/^nitro (\d+)$/))) return `${name}: spend die ${m[1]} for extra movement`;
  if ((m = name.match(/^drift (\d+)$/))) return `${name}: spend die ${m[1]} to shift sideways`;
  if (name === "reroll") return "reroll: roll the slam again";
  if (name === "accept") return "accept: keep the slam's roll";
  if (name === "reroll-shot") return "reroll-shot: roll the shot again";
  if (name === "keep-shot") return "keep-shot: keep the shot's roll";
  if (name === "pass") return "pass: do nothing now";
  if (name === "no-shoot") return "no-shoot: do not fire";
  if (name === "no-hazard") return "no-hazard: drop no hazard";
  if ((m = name.match(/^hazard (\S+)$/))) return `${name}: drop a hazard on ${m[1]}`;
  if ((m = name.match(/^chopper (\S+)$/))) return `${name}: put the chopper on ${m[1]}`;
  if ((m = name.match(/^move (\S+)$/))) return `${name}: the slam moves ${m[1]}`;
  if ((m = name.match(/^steering (\d+)$/))) return `${name}: the Big Rig steers with die ${m[1]}`;
  if ((m = name.match(/^assign (\d+) to (\S+) (\S+)$/))) return `${name}: die ${m[1]} to the Big Rig's ${m[2]} section (${m[3]})`;
  if ((m = name.match(/^damage (\S+) (\S+)$/))) return `${name}: the damage goes on the ${m[1]} section, its ${m[2]} lost`;
  if ((m = name.match(/^cow-catcher (\S+)$/))) return `${name}: the cow-catcher pushes ${m[1]}`;
  if ((m = name.match(/^shoot (\S+) (\S+)$/))) return `${name}: the ${m[2]} fires at ${m[1]}`;
  if (name === "road-die") {  // the road die's value is the game's (its faces are not all 1)
    const n = current && current.view ? current.view.road_die : null;
    return `road-die: add the road die${n ? ` (${n})` : ""} to this move`;
  }
  if (name === "no-road-die") return "no-road-die: leave the road die";
  if (name === "keep") return "keep: keep these dice";
  if ((m = name.match(/^shoot (.+)$/))) return `${name}: fire at ${m[1]}`;
  if (name === "hold-fire" || name === "no-shot") return `${name}: do not fire`;
  return name;
}

async function pickVehicle(game, id) {
  if (!current || sending) return;
  const choices = current.options.map((o, i) => [o, i, JSON.parse(o.action)]).filter(([, , a]) => a.car === id);
  if (!choices.length) { say(`${id} is not one you can move now`); return; }
  plan = { vehicle: id, choices };
  drawPlan(game);
}

function drawPlan(game) {
  const svg = document.querySelector("#board svg");
  for (const g of svg.querySelectorAll("g.vehicle")) g.classList.toggle("selected", g.dataset.id === plan.vehicle);
  const options = document.getElementById("options");
  options.replaceChildren(el("span", { text: `${plan.vehicle}: ` }),
    ...plan.choices.map(([o, i]) => el("button", { "data-option": i, class: plan.option === i ? "on" : "",
      onclick: () => loadReach(game, i), text: words(o.name) })),
    plan.choices.length ? el("button", { class: "aside", id: "unpick", onclick: () => { plan = null; show(game, true); },
      text: "Pick another vehicle" }) : "");
  document.getElementById("picked").textContent = plan.reach ? "Click a marked space to see the path." : "Choose the die.";
  if (plan.reach) drawReach(game);
}

async function loadReach(game, option) {
  const q = option === null ? "" : `?option=${option}`;
  const reach = await api("GET", `/api/games/${encodeURIComponent(game)}/reach${q}`);
  if (reach.version !== current.version) return;
  plan.option = option;
  plan.reach = reach;
  if (!plan.vehicle) {
    const ids = Object.keys(reach.vehicles);
    plan.vehicle = ids[0] || null;
    plan.choices = [];
    if (!plan.vehicle) {  // nothing to click: the steps as words
      plan = null;
      const options = document.getElementById("options");
      for (const o of current.options) options.append(optionButton(game, current, o));
      return;
    }
  }
  drawPlan(game);
}

function drawReach(game) {
  const svg = document.querySelector("#board svg");
  for (const m of svg.querySelectorAll(".reach, .path")) m.remove();
  const spaces = plan.reach.vehicles[plan.vehicle] || {};
  const names = Object.keys(spaces);
  const chancy = names.filter((at) => spaces[at].chance).length;
  document.getElementById("picked").textContent = names.length
    ? `${plan.vehicle} can reach ${names.length} space${names.length === 1 ? "" : "s"}` +
      (chancy ? ` (${chancy} where chance decides what happens: dashed)` : "") + ": click one to see the path."
    : `${plan.vehicle} reaches no space without a command (or a fatal step): play it with the buttons.`;
  for (const [at, way] of Object.entries(spaces)) {
    if (!way.xy) continue;
    const cls = "reach" + (way.hazards.length ? " hazard" : "") + (way.terrain !== "road" ? " terrain" : "") +
      (way.targets.length ? " target" : "") + (way.chance ? " chance" : "");
    const mark = svgEl("circle", { class: cls, "data-space": at, cx: way.xy[0], cy: way.xy[1], r: 10 });
    mark.append(svgEl("title", {}));
    mark.firstChild.textContent = describeWay(at, way);
    mark.addEventListener("click", (e) => { e.stopPropagation(); preview(game, at); });
    svg.append(mark);
  }
  if (plan.option !== null && plan.option !== undefined) {
    // the die alone, the steps then one by one (a way through chance, a command): as a button
    const o = current.options[plan.option];
    document.getElementById("options").append(el("button", { "data-action": o.action, class: "aside",
      onclick: (e) => act(game, current, o, e.target), text: `${o.name} only (then step by step)` }));
  }
  if (plan.space) preview(game, plan.space);
  else if (!plan.choices.length) {
    // a move under way: its steps as buttons too (a step into chance is chosen there)
    const options = document.getElementById("options");
    for (const o of current.options) options.append(optionButton(game, current, o));
  }
}

function describeWay(at, way) {
  const steps = way.names.filter((n) => /^(F|FL|FR|B|BL|BR|L|R)$/.test(n));
  return `${at} (${way.terrain})` + (steps.length ? `, by ${steps.join(" ")}` : "") +
    (way.hazards.length ? `; ${way.hazards.join("; ")}` : "") +
    (way.targets.length ? `; then you can fire at ${way.targets.join(", ")}` : "") +
    (way.chance ? `; there chance decides: ${way.chance} (the server rolls; the rest of the move is yours then)` : "");
}

function preview(game, at) {
  const svg = document.querySelector("#board svg");
  const way = plan.reach.vehicles[plan.vehicle][at];
  plan.space = at;
  for (const m of svg.querySelectorAll(".path")) m.remove();
  for (const m of svg.querySelectorAll(".reach")) m.classList.toggle("chosen", m.dataset.space === at);
  const car = svg.querySelector(`g.vehicle[data-id="${plan.vehicle}"]`);
  const from = car ? car.getAttribute("transform").match(/translate\(([-\d.]+),([-\d.]+)\)/) : null;
  const points = [...(from ? [[from[1], from[2]]] : []), ...way.path_xy].map((p) => p.join(",")).join(" ");
  svg.append(svgEl("polyline", { class: "path", points }));
  confirmBox(game, way.actions, `${plan.vehicle} to ${describeWay(at, way)}`, () => {
    plan.space = null;
    for (const m of svg.querySelectorAll(".path")) m.remove();
    for (const m of svg.querySelectorAll(".reach.chosen")) m.classList.remove("chosen");
    document.getElementById("confirm").remove();
    say("taken back: nothing was sent");
  }, way.chance ? "; chance decided what followed (the log says what)" : "");
}

function confirmBox(game, actions, text, takeBack, after) {
  const old = document.getElementById("confirm");
  if (old) old.remove();
  const box = el("div", { class: "confirm", id: "confirm" },
    el("div", { id: "preview", text: `Move: ${text}` }),
    el("button", { id: "send", class: "send", onclick: () => sendWay(game, actions, after), text: "Confirm and send" }),
    el("button", { id: "takeback", onclick: takeBack, text: "Take back" }));
  document.getElementById("picked").after(box);
}

// a way's actions, one signed action at a time; each must be among the options the server lists then
async function sendWay(game, actions, after) {
  sending = true;
  for (const b of document.querySelectorAll(".confirm button, .options button")) b.disabled = true;
  let done = 0;
  try {
    for (const action of actions) {
      const doc = done ? await api("GET", `/api/games/${encodeURIComponent(game)}`) : current;
      const option = doc.options.find((o) => o.action === action);
      if (!option) {
        current = null;
        say(`the move stopped after ${done} of ${actions.length} actions: the game now waits on ` +
            `${doc.pending ? doc.pending.player + " (" + doc.pending.kind + ")" : "nothing"}`, true);
        break;
      }
      await post(game, doc, option);
      done++;
    }
    if (done === actions.length) {
      say(`sent and recorded: ${actions.length} action${actions.length === 1 ? "" : "s"}${after || ""}`, false, "ok");
    }
  } catch (e) {
    say(e.message, true);
  } finally {
    sending = false;
    plan = null;
    await show(game, true).catch((e) => say(e.message, true));
  }
}

async function post(game, doc, option) {
  const text = `${SIGNATURE_PREFIX}${doc.domain}\n${doc.version + 1}\n${doc.head}\n${option.action}`;
  return api("POST", `/api/games/${encodeURIComponent(game)}/act`,
    { action: option.action, version: doc.version, signature: await sign(text) });
}

async function act(game, doc, option, button) {
  for (const b of document.querySelectorAll(".options button")) b.disabled = true;
  try {
    const out = await post(game, doc, option);
    say(`your move is recorded (event ${out.version}): ${option.name}`, false, "ok");
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
