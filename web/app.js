// The page of `catan web` (docs/web.md): one WebSocket speaking the requests of
// `catan serve` (docs/protocol.md), redrawn from every `update` the server pushes. The
// server decides what this page may see and do from the token in its address; the page
// only draws what it is sent and offers the legal actions it lists.

import { renderBoard, resourceColor, seatColor } from "./board.js";
import { renderPrincipality } from "./principality.js";

const $ = (id) => document.getElementById(id);
const token = new URLSearchParams(location.search).get("token");
let socket = null;
let nextId = 1;
const pending = new Map();
let state = null; // the last update
let busy = false;

function showError(message) {
  const box = $("error");
  if (!message) { box.hidden = true; return; }
  // The rule's words, then (for modders) where it refused: [variant, file:line].
  const m = /^(.*?)(\s*\[[^\]]*\])$/.exec(message);
  box.textContent = m ? m[1] : message;
  if (m) {
    const where = document.createElement("span");
    where.className = "where";
    where.textContent = m[2];
    box.appendChild(where);
  }
  box.hidden = false;
}

function request(req) {
  return new Promise((resolve) => {
    const id = nextId++;
    pending.set(id, resolve);
    socket.send(JSON.stringify({ ...req, id }));
  });
}

// Plays one action (a legal action object, or the text one types).
async function act(action) {
  if (busy) return;
  busy = true;
  hideMenu();
  const req = { cmd: "act", action };
  if (state && state.role === "host" && state.seat) req.seat = state.seat;
  const answer = await request(req);
  busy = false;
  if (!answer.ok) showError(answer.error.message);
  else { showError(null); $("hint-box").hidden = true; }
  return answer;
}

function connect() {
  if (!token) {
    $("status").textContent = "no token: open the link `catan web` printed (it ends in ?token=...)";
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws?token=${encodeURIComponent(token)}`);
  socket.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.push === "update") return update(msg);
    const resolve = pending.get(msg.id);
    if (resolve) { pending.delete(msg.id); resolve(msg); }
  };
  socket.onclose = () => {
    $("status").textContent = state
      ? "the server closed the connection (stopped?): reload to reconnect"
      : "refused: this link's token is not one of the running game's (or the server is not running)";
    document.body.classList.add("closed");
  };
}

function cardsText(zone) {
  if (zone == null) return "";
  if (Array.isArray(zone)) return zone.join(", ");
  if (typeof zone === "object" && "count" in zone) return `${zone.count} hidden${zone.top ? ", top " + zone.top : ""}`;
  return Object.entries(zone).map(([k, n]) => `${n} ${k}`).join(", ");
}

// Cards as chips: one chip a kind with its count, or one a card to pick from (onClick).
function cardChips(parent, zone, onClick) {
  const box = document.createElement("div");
  box.className = "cards";
  const entries = Array.isArray(zone) ? zone.map((k) => [k, 1]) : Object.entries(zone || {});
  for (const [k, n] of entries) {
    for (let i = 0; i < (onClick ? n : 1); i++) {
      const c = document.createElement("span");
      c.className = "card";
      c.textContent = onClick || n === 1 ? k : `${n} ${k}`;
      c.dataset.card = k;
      c.style.borderLeft = `6px solid ${resourceColor(k)}`;
      if (onClick) { c.classList.add("pick"); c.addEventListener("click", () => onClick(k, c)); }
      box.appendChild(c);
    }
  }
  parent.appendChild(box);
  return box;
}

function update(u) {
  if (u.watch) return watchMode();
  state = u;
  // For tests and scripts: which update the page drew last.
  document.body.dataset.version = u.version;
  document.body.dataset.toAct = u.status.to_act == null ? "" : u.status.to_act;
  const v = u.view;
  const st = u.status;
  const over = st.winner != null;
  const toAct = v.to_act;
  $("status").textContent = `${st.variants.join("+")} · turn ${st.turn} · ${st.phase}` +
    (over ? "" : ` · ${toAct} to act`);
  $("whoami").textContent = u.role === "host" ? `hot seat${u.seat ? ": " + st.colors[u.seat - 1] : ""}` : `you: ${u.role}`;
  for (const line of u.log || []) {
    const li = document.createElement("li");
    li.textContent = line.text;
    if (line.bot) li.className = "bot";
    $("log").appendChild(li);
    const roll = /rolls? (.*)$/.exec(line.text);
    if (roll) $("dice").textContent = line.text;
  }
  while ($("log").children.length > 1000) $("log").firstChild.remove();
  // The last lines beside the buttons: what was just offered, rolled or played.
  const recent = [...$("log").children].slice(-3);
  $("recent").textContent = "";
  for (const li of recent) {
    const r = document.createElement("li");
    r.textContent = li.textContent;
    $("recent").appendChild(r);
  }
  $("log").scrollTop = $("log").scrollHeight;
  renderPlayers(v, st);
  renderHand(v, u);
  $("bank").textContent = "";
  for (const [name, zone] of Object.entries(v.zones || {})) {
    const d = document.createElement("div");
    d.textContent = `${name}: ${cardsText(zone) || "empty"}`;
    $("bank").appendChild(d);
  }
  renderTable(u);
  renderActions(u);
  if (over) {
    $("prompt").innerHTML = "";
    const w = document.createElement("span");
    w.className = "winner";
    w.textContent = `${v.winner} wins the game`;
    $("prompt").appendChild(w);
  }
}

function renderPlayers(v, st) {
  const t = $("players");
  t.textContent = "";
  for (const p of v.players) {
    const tr = document.createElement("tr");
    if (p.color === v.to_act) tr.className = "to-act";
    const pts = p.points != null ? p.points : p.public_points;
    const supply = Object.entries(p.supply || {}).map(([k, n]) => `${n} ${k}`).join(", ");
    const zones = Object.entries(p.zones || {}).filter(([, z]) => cardsText(z)).map(([k, z]) => `${k}: ${cardsText(z)}`).join("; ");
    const info = p.info && p.info.summary ? p.info.summary : zones;
    tr.innerHTML = `<td><span class="swatch"></span></td><td></td><td></td><td></td>`;
    tr.children[0].firstChild.style.background = seatColor(p.color);
    tr.children[1].textContent = p.color + (p.color === v.to_act ? " ◀" : "");
    tr.children[2].textContent = `${pts} VP`;
    tr.children[3].textContent = `${info}${supply ? " · left: " + supply : ""}`;
    t.appendChild(tr);
  }
}

function myPlayer(v, u) {
  return u.seat ? v.players[u.seat - 1] : null;
}

function renderHand(v, u) {
  const box = $("hand");
  box.textContent = "";
  const me = myPlayer(v, u);
  if (!me) { box.textContent = "(spectator: no hand)"; return; }
  for (const [zone, cards] of Object.entries(me.zones || {})) {
    if (!cards || (typeof cards === "object" && !Array.isArray(cards) && Object.keys(cards).length === 0)) continue;
    if (Array.isArray(cards) && cards.length === 0) continue;
    const h = document.createElement("div");
    h.textContent = zone;
    box.appendChild(h);
    if (typeof cards === "object" && "count" in cards) h.textContent += `: ${cardsText(cards)}`;
    else cardChips(box, cards);
  }
}

// The kinds of board places an action argument names.
const PLACE = { Hex: "hex", Intersection: "intersection", Path: "path" };

function placeOf(board, action) {
  for (const arg of action.args) {
    const [kind, value] = Object.entries(arg)[0];
    const where = PLACE[kind];
    if (!where) continue;
    const list = { hex: board.hexes, intersection: board.intersections, path: board.paths }[where];
    const label = typeof value === "number" ? list[value] && list[value].label : value;
    return `${where}:${label}`;
  }
  return null;
}

function renderTable(u) {
  const v = u.view;
  const places = new Map();
  const legal = (u.legal && u.legal.actions) || [];
  if (v.board) {
    for (const a of legal) {
      const key = placeOf(v.board, a.action);
      if (!key) continue;
      if (!places.has(key)) places.set(key, []);
      places.get(key).push(a);
    }
  }
  const hasGrid = (v.grids || []).length > 0;
  $("board").hidden = !v.board;
  renderBoard($("board"), v, places, (acts, label, ev) => choose(acts, label, ev));
  $("principality").hidden = !(hasGrid || !v.board);
  if (hasGrid || !v.board) renderPrincipality(v, $("principality"), { legal, act });
  return places;
}

// One action: played at once; several on one place: a small menu.
function choose(acts, label, ev) {
  if (acts.length === 1) return act(acts[0].action);
  const menu = $("menu");
  menu.textContent = "";
  const h = document.createElement("div");
  h.textContent = label;
  menu.appendChild(h);
  for (const a of acts) {
    const b = document.createElement("button");
    b.textContent = a.text;
    b.addEventListener("click", () => act(a.action));
    menu.appendChild(b);
  }
  const e = ev || window.event;
  menu.style.left = `${(e && e.clientX) || 100}px`;
  menu.style.top = `${(e && e.clientY) || 100}px`;
  menu.hidden = false;
}
function hideMenu() { $("menu").hidden = true; }
document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideMenu(); });
document.addEventListener("click", (e) => { if (!$("menu").contains(e.target) && !(e.target.closest && e.target.closest(".target"))) hideMenu(); });

function argKinds(action) { return action.args.map((a) => Object.keys(a)[0]); }
const isTrade = (a) => { const k = argKinds(a.action); return k.length === 2 && k[0] === "Cards" && k[1] === "Cards"; };
const isCardPick = (a) => { const k = argKinds(a.action); return k.length === 1 && k[0] === "Cards"; };

function renderActions(u) {
  const box = $("actions");
  box.textContent = "";
  $("picker").hidden = true;
  const legal = (u.legal && u.legal.actions) || [];
  const templates = (u.legal && u.legal.templates) || [];
  const v = u.view;
  const mine = u.seat != null;
  const who = mine ? u.status.colors[u.seat - 1] : null;
  const onBoard = legal.filter((a) => v.board && placeOf(v.board, a.action));
  let prompt = "";
  if (!mine) prompt = "watching";
  else if (legal.length === 0 && templates.length === 0) prompt = `waiting for ${v.to_act || "nobody"}`;
  else prompt = `${who}: your move` + (onBoard.length ? " (click a highlighted place on the board)" : "");
  $("prompt").textContent = prompt;
  $("hint").hidden = !mine || legal.length === 0;
  $("undo").hidden = u.role !== "host" || u.status.actions === 0;
  const trades = legal.filter(isTrade);
  $("trade-open").hidden = !(trades.length || templates.length);
  const rest = legal.filter((a) => !onBoard.includes(a) && !isTrade(a));
  const groups = new Map();
  for (const a of rest) {
    if (!groups.has(a.action.name)) groups.set(a.action.name, []);
    groups.get(a.action.name).push(a);
  }
  for (const [name, acts] of groups) {
    const g = document.createElement("div");
    g.className = "group";
    g.dataset.name = name;
    if (acts.length === 1) {
      const b = document.createElement("button");
      b.textContent = acts[0].text;
      b.dataset.action = acts[0].text;
      b.addEventListener("click", () => act(acts[0].action));
      g.appendChild(b);
    } else if (acts.every(isCardPick)) {
      const b = document.createElement("button");
      b.textContent = `${name.replace(/_/g, " ")}...`;
      b.dataset.pick = name;
      b.addEventListener("click", () => cardPicker(name, acts));
      g.appendChild(b);
      if (u.status.phase === name || name === "discard") cardPicker(name, acts);
    } else {
      const sel = document.createElement("select");
      for (const a of acts) {
        const o = document.createElement("option");
        o.textContent = a.text;
        sel.appendChild(o);
      }
      const b = document.createElement("button");
      b.textContent = name.replace(/_/g, " ");
      b.addEventListener("click", () => act(acts[sel.selectedIndex].action));
      g.append(sel, " ", b);
    }
    box.appendChild(g);
  }
  if ($("trade").open) fillTrade(u);
}

// Cards chosen for an action of one <cards> argument (a discard, the resources a card takes).
function cardPicker(name, acts) {
  const box = $("picker");
  box.textContent = "";
  box.hidden = false;
  const need = Object.values(acts[0].action.args[0].Cards).reduce((s, [, n]) => s + n, 0);
  const chosen = {};
  const head = document.createElement("div");
  const send = document.createElement("button");
  const refresh = () => {
    const n = Object.values(chosen).reduce((s, x) => s + x, 0);
    head.textContent = `${name.replace(/_/g, " ")}: choose ${need} card(s) (${n} chosen)`;
    send.disabled = n !== need;
  };
  box.appendChild(head);
  // The cards to pick from are those the listed actions name, each as often as the most
  // any of them names it: for a discard that is the hand (up to the number to discard);
  // for cards taken (`play goldsmith <cards>`), the kinds one may take, which the hand
  // does not hold.
  const most = {};
  for (const a of acts) for (const [k, n] of a.action.args[0].Cards) most[k] = Math.max(most[k] || 0, n);
  cardChips(box, most, (k, chip) => {
    if (chip.classList.toggle("chosen")) chosen[k] = (chosen[k] || 0) + 1;
    else chosen[k] -= 1;
    refresh();
  });
  send.textContent = name.replace(/_/g, " ");
  send.addEventListener("click", () => {
    const same = (a) => {
      const cards = a.action.args[0].Cards;
      return cards.every(([k, n]) => (chosen[k] || 0) === n) &&
        Object.entries(chosen).filter(([, n]) => n > 0).length === cards.length;
    };
    const found = acts.find(same);
    const text = `${name} ${Object.entries(chosen).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(" ")}`;
    act(found ? found.action : text);
  });
  box.appendChild(send);
  refresh();
}

// The trade dialog: the maritime trades listed, and offers the rules cannot list
// (templates such as `offer <cards> for <cards>`) composed with steppers.
function resourceNames(v) {
  const names = new Set();
  for (const z of Object.values(v.zones || {})) {
    if (z && typeof z === "object" && !Array.isArray(z) && !("count" in z)) Object.keys(z).forEach((k) => names.add(k));
  }
  if (names.size === 0) {
    for (const p of v.players) for (const z of Object.values(p.zones)) if (z && !("count" in z) && !Array.isArray(z)) Object.keys(z).forEach((k) => names.add(k));
  }
  return [...names];
}

function fillTrade(u) {
  const legal = (u.legal && u.legal.actions) || [];
  const bank = $("trade-bank");
  bank.textContent = "";
  const trades = legal.filter(isTrade);
  if (trades.length) {
    const h = document.createElement("p");
    h.textContent = "With the bank or a harbor:";
    bank.appendChild(h);
    for (const a of trades) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = a.text;
      b.addEventListener("click", async () => { const r = await act(a.action); if (r && r.ok) $("trade").close(); });
      bank.appendChild(b);
    }
  }
  const templates = (u.legal && u.legal.templates) || [];
  $("trade-offer").hidden = templates.length === 0;
  const sel = $("trade-template");
  const before = sel.value;
  sel.textContent = "";
  for (const t of templates) {
    const o = document.createElement("option");
    o.textContent = t;
    sel.appendChild(o);
  }
  if (templates.includes(before)) sel.value = before;
  const rows = $("trade-rows");
  if (rows.children.length === 0) {
    for (const r of resourceNames(u.view)) {
      const tr = document.createElement("tr");
      tr.innerHTML = `<td></td><td><input type="number" min="0" value="0" data-side="give"></td><td><input type="number" min="0" value="0" data-side="get"></td>`;
      tr.children[0].textContent = r;
      tr.dataset.resource = r;
      rows.appendChild(tr);
    }
    rows.addEventListener("input", tradeText);
  }
  tradeText();
}

function tradeText() {
  const side = (s) => [...$("trade-rows").children]
    .map((tr) => [tr.dataset.resource, Number(tr.querySelector(`[data-side=${s}]`).value) || 0])
    .filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`).join(" ") || "nothing";
  let text = $("trade-template").value || "";
  text = text.replace("<cards>", side("give")).replace("<cards>", side("get"));
  $("trade-text").textContent = text;
  return text;
}

$("trade-open").addEventListener("click", () => { if (state) { fillTrade(state); $("trade").showModal(); } });
$("trade-template").addEventListener("change", tradeText);
$("trade-send").addEventListener("click", async () => {
  const r = await act(tradeText());
  if (r && r.ok) $("trade").close();
});

$("hint").addEventListener("click", async () => {
  const box = $("hint-box");
  box.hidden = false;
  box.textContent = "thinking...";
  const req = { cmd: "hint" };
  if (state && state.role === "host" && state.seat) req.seat = state.seat;
  const r = await request(req);
  if (!r.ok) { box.textContent = r.error.message; return; }
  box.textContent = "";
  const lines = [`hint: ${r.text || "no legal action"}`];
  if (r.gains) lines.push(`what it does for you: ${r.gains.length ? r.gains.join("; ") : "nothing at once"}`);
  if (r.others && r.others.length) lines.push(`for the others: ${r.others.join("; ")}`);
  if (r.chance) lines.push(`your win chance by the evaluation: ${Math.round(100 * r.chance[0])}% -> ${Math.round(100 * r.chance[1])}%`);
  if (r.why) lines.push(`(${r.why})`);
  for (const l of lines) { const d = document.createElement("div"); d.textContent = l; box.appendChild(d); }
  if (r.action) {
    const b = document.createElement("button");
    b.textContent = `play ${r.text}`;
    b.addEventListener("click", () => act(r.action));
    box.appendChild(b);
  }
});

$("undo").addEventListener("click", async () => {
  const r = await request({ cmd: "undo" });
  showError(r.ok ? null : r.error.message);
});

// Watching a saved or simulated game (`catan web --watch FILE`): web/replay.js puts its
// slider, buttons and log in place of the controls and the log, and each step's view is
// drawn as an update of a spectator's.
let watching = false;
async function watchMode() {
  if (watching) return;
  watching = true;
  document.body.classList.add("watching");
  const { startReplay } = await import("./replay.js");
  const root = document.createElement("div");
  root.id = "watch";
  $("controls").hidden = true;
  $("log").hidden = true;
  if ($("log").previousElementSibling) $("log").previousElementSibling.hidden = true; // its heading
  $("side").insertBefore(root, $("side").firstChild);
  const draw = (v, answer) => update({
    role: "spectator", seat: null, view: v, legal: null, log: [], version: `watch-${answer.at}`,
    status: { variants: v.variants, turn: v.turn, phase: v.phase, winner: v.winner,
      to_act: v.to_act, colors: v.players.map((p) => p.color) },
  });
  await startReplay({ request, root, draw });
}

connect();
