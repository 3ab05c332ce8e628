"use strict";
// The replay viewer: frames of SVG pieces drawn by trvendetta.pictures.svg,
// a slider, buttons, arrow keys, clickable sentences, and the hash chain
// checked again here with a small SHA-256 of our own (FIPS 180-4), because
// crypto.subtle needs a secure context and a mailed file:// page may lack it.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

function sha256(msg) {  // msg: Uint8Array; returns the digest as lower-case hex
  const len = msg.length, total = ((len + 9 + 63) >> 6) << 6;
  const buf = new Uint8Array(total);
  buf.set(msg);
  buf[len] = 0x80;
  const view = new DataView(buf.buffer);
  view.setUint32(total - 8, Math.floor(len / 0x20000000));
  view.setUint32(total - 4, (len << 3) >>> 0);
  const H = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                             0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const W = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(off + 4 * i);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15], b = W[i - 2];
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3), s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, h] = H;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + W[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    H[0] += a; H[1] += b; H[2] += c; H[3] += d; H[4] += e; H[5] += f; H[6] += g; H[7] += h;
  }
  return Array.from(H, x => x.toString(16).padStart(8, "0")).join("");
}

function hexBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

// The store's chain (docs/store.md): hash_n = sha256(hash_{n-1} as 32 bytes + body),
// body = [action + "\n"] + [signatures + "\n"] + payload (each part only where the record has it);
// a game with a charter starts from its genesis hash (docs/fair-play.md).
function checkChain(data) {
  const enc = new TextEncoder();
  let previous = data.genesis;
  for (const r of data.records) {
    let text = r.payload;
    if (r.sig) text = r.sig + "\n" + text;
    if (r.action) text = r.action + "\n" + text;
    const body = enc.encode(text);
    const prev = hexBytes(previous);
    const msg = new Uint8Array(prev.length + body.length);
    msg.set(prev);
    msg.set(body, prev.length);
    const got = sha256(msg);
    if (got !== r.hash) {
      return {ok: false, text: `broken at event ${r.n}: recorded ${r.hash.slice(0, 16)}..., ` +
                               `computed ${got.slice(0, 16)}... (the record was changed)`};
    }
    previous = r.hash;
  }
  if (previous !== data.head) return {ok: false, text: `the last hash is not the recorded head ${data.head}`};
  return {ok: true, text: `${data.records.length} events, head ${previous.slice(0, 16)}...`};
}

const data = JSON.parse(document.getElementById("data").textContent);
const board = document.getElementById("board");
const layer = document.getElementById("layer");
const slider = document.getElementById("slider");
const where = document.getElementById("where");
const current = document.getElementById("current");
const rows = Array.from(document.querySelectorAll("#events li"));
const list = document.querySelector("aside");
const count = data.frames.length;
let shown = 0;

function fit(frame) {  // the whole board in the window (scaled down, never up): the first rounds are at its foot
  const top = board.getBoundingClientRect().top + window.scrollY;
  const tall = Math.max(240, window.innerHeight - top - 12);
  const scale = Math.min(1, tall / frame.h);
  board.setAttribute("width", Math.round(frame.w * scale));
  board.setAttribute("height", Math.round(frame.h * scale));
  // the sentences too, below the header: the current one (the last, on opening) is never below the fold
  const below = list.getBoundingClientRect().top + window.scrollY;
  list.style.maxHeight = `${Math.max(240, window.innerHeight - below - 12)}px`;
}
window.addEventListener("resize", () => { if (shown) fit(data.frames[shown - 1]); });

function show(n) {  // n: event number, 1..count
  n = Math.max(1, Math.min(count, n | 0));
  const frame = data.frames[n - 1];
  layer.innerHTML = frame.p.map(i => data.pieces[i]).join("");
  board.setAttribute("viewBox", `0 0 ${frame.w} ${frame.h}`);
  fit(frame);
  if (shown) rows[shown - 1].classList.remove("current");
  const row = rows[n - 1];
  row.classList.add("current");
  list.scrollTop = row.offsetTop - list.clientHeight / 2;  // the list only: the window stays put
  const act = row.querySelector(".act");
  current.textContent = `${n}. ` + row.querySelector(".s").textContent;  // the list above it names the action
  current.title = act ? act.textContent : "";
  slider.value = n;
  where.textContent = `event ${n} of ${count}`;
  shown = n;
  document.body.dataset.event = n;
}

slider.addEventListener("input", () => show(+slider.value));
document.getElementById("first").onclick = () => show(1);
document.getElementById("prev").onclick = () => show(shown - 1);
document.getElementById("next").onclick = () => show(shown + 1);
document.getElementById("last").onclick = () => show(count);
document.getElementById("events").addEventListener("click", ev => {
  const li = ev.target.closest("li");
  if (li) show(+li.dataset.n);
});
document.addEventListener("keydown", ev => {
  if (ev.target === slider && (ev.key === "ArrowLeft" || ev.key === "ArrowRight")) {
    ev.preventDefault();  // the slider would move too: one step per key press
  }
  const step = {ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1, PageUp: -10, PageDown: 10}[ev.key];
  if (step) { show(shown + step); ev.preventDefault(); }
  else if (ev.key === "Home") { show(1); ev.preventDefault(); }
  else if (ev.key === "End") { show(count); ev.preventDefault(); }
});

const start = /^#(\d+)$/.exec(location.hash);
show(start ? +start[1] : count);
window.trvShownMs = performance.now();
setTimeout(() => {
  const chain = document.getElementById("chain");
  const result = checkChain(data);
  chain.className = result.ok ? "ok" : "bad";
  chain.querySelector("span").textContent = result.text;
  document.body.dataset.chain = result.ok ? "ok" : "bad";
}, 0);
