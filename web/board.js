// The hex board as SVG, drawn from the view's topology (any variant with a hex board):
// hexes with terrain colour and number token, harbors, markers (the robber), pieces in
// the seats' colours, the REPL's labels on hover, and the places the seat may act on
// made clickable.
//
// Geometry as src/board/mod.rs: pointy-top hexes, a hex at axial (q, r) centred at
// (2q + r, 3r) in units of (sqrt(3)/2, 1/2) of the hex's radius; corners clockwise from
// the top, so the view's `corners` of a hex place every intersection.

const SVG = "http://www.w3.org/2000/svg";
const R = 50; // hex radius in SVG units
const UX = (Math.sqrt(3) / 2) * R;
const UY = R / 2;
const CORNERS = [[0, -2], [1, -1], [1, 1], [0, 2], [-1, 1], [-1, -1]];

const TERRAIN = {
  hills: "#c8693f", forest: "#2f7d3a", pasture: "#9ccc65", fields: "#f0c94a",
  mountains: "#8f949a", desert: "#e6d6a8", sea: "#4a8fc9", water: "#4a8fc9",
  gold: "#e0b43a", gold_field: "#e0b43a", lake: "#5fa8d8", volcano: "#7a3b2e", jungle: "#1f6b3a",
};
const RESOURCE = {
  brick: "#c8693f", lumber: "#2f7d3a", wool: "#9ccc65", grain: "#f0c94a", ore: "#8f949a",
};

// A colour for any name the table does not know: stable, from the name's letters.
function hashColor(name) {
  let h = 0;
  for (const c of String(name)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return `hsl(${h % 360} 45% 60%)`;
}
export function terrainColor(t) { return TERRAIN[t] || hashColor(t); }
export function resourceColor(r) { return RESOURCE[r] || hashColor(r); }
export function seatColor(c) {
  const known = ["red", "blue", "white", "orange", "green", "brown"];
  return known.includes(c) ? { white: "#f4f4f4", orange: "#f08c00", brown: "#8b5a2b", green: "#2e9e44", blue: "#2962d9", red: "#d7263d" }[c] : hashColor(c);
}

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}
function title(e, text) { el("title", {}, e).textContent = text; }

// Where each hex centre and each intersection lies.
export function layout(board) {
  const hex = new Map();
  const point = new Map();
  for (const h of board.hexes) {
    const cx = 2 * h.q + h.r, cy = 3 * h.r;
    hex.set(h.label, { x: cx * UX, y: cy * UY });
    h.corners.forEach((c, k) => {
      if (!point.has(c)) point.set(c, { x: (cx + CORNERS[k][0]) * UX, y: (cy + CORNERS[k][1]) * UY });
    });
  }
  return { hex, point };
}

// Draws `view.board` into `container` (replacing what it held). `places` maps
// "hex:H5", "intersection:12", "path:12-13" to the legal actions on that place;
// `onPick(actions, label)` is called when one is clicked.
export function renderBoard(container, view, places, onPick) {
  const board = view.board;
  container.textContent = "";
  if (!board) return;
  const { hex, point } = layout(board);
  const xs = [...point.values()].map((p) => p.x), ys = [...point.values()].map((p) => p.y);
  const pad = 60;
  const minX = Math.min(...xs) - pad, minY = Math.min(...ys) - pad;
  const w = Math.max(...xs) - minX + pad, h = Math.max(...ys) - minY + pad;
  const svg = el("svg", { viewBox: `${minX} ${minY} ${w} ${h}`, class: "board", role: "img" }, container);
  const layers = ["hexes", "harbors", "paths", "nodes"].map((n) => el("g", { class: n }, svg));
  const [gh, gharb, gp, gn] = layers;
  const centre = { x: (Math.min(...xs) + Math.max(...xs)) / 2, y: (Math.min(...ys) + Math.max(...ys)) / 2 };
  const pick = (key, label) => {
    const acts = places.get(key);
    return acts && acts.length ? (ev) => onPick(acts, label, ev) : null;
  };
  const markersAt = new Map();
  for (const [name, label] of Object.entries(board.markers || {})) {
    if (!markersAt.has(label)) markersAt.set(label, []);
    markersAt.get(label).push(name);
  }

  for (const hx of board.hexes) {
    const c = hex.get(hx.label);
    const pts = hx.corners.map((k) => point.get(k)).map((p) => `${p.x},${p.y}`).join(" ");
    const g = el("g", { class: "hex", "data-label": hx.label }, gh);
    el("polygon", { points: pts, fill: terrainColor(hx.terrain), stroke: "#5b4a2f", "stroke-width": 2 }, g);
    if (hx.number != null) {
      const red = hx.number === 6 || hx.number === 8;
      el("circle", { cx: c.x, cy: c.y, r: 15, fill: "#fdf6e3", stroke: "#5b4a2f" }, g);
      const t = el("text", { x: c.x, y: c.y + 6, "text-anchor": "middle", class: red ? "num red" : "num" }, g);
      t.textContent = hx.number;
    }
    const markers = markersAt.get(hx.label) || [];
    markers.forEach((m, i) => {
      const mg = el("g", { class: `marker marker-${m}` }, g);
      el("circle", { cx: c.x - 22 + i * 12, cy: c.y - 22, r: 9, fill: m === "robber" ? "#222" : "#603", stroke: "#fff" }, mg);
      title(mg, `${m} on ${hx.label}`);
    });
    title(g, `${hx.label}: ${hx.terrain}${hx.number != null ? " " + hx.number : ""}${markers.length ? " (" + markers.join(", ") + ")" : ""}`);
    const click = pick(`hex:${hx.label}`, hx.label);
    if (click) {
      g.classList.add("target");
      g.addEventListener("click", click);
    }
  }

  // Harbors: a token off the coast beside their path, with the ratio and resource.
  const pathEnds = new Map(board.paths.map((p) => [p.label, p.ends]));
  for (const hb of board.harbors || []) {
    const ends = pathEnds.get(hb.path);
    if (!ends) continue;
    const [a, b] = ends.map((e) => point.get(e));
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    let dx = mx - centre.x, dy = my - centre.y;
    const len = Math.hypot(dx, dy) || 1;
    dx /= len; dy /= len;
    const hx = mx + dx * 36, hy = my + dy * 36;
    const g = el("g", { class: "harbor" }, gharb);
    el("line", { x1: a.x, y1: a.y, x2: hx, y2: hy, stroke: "#7a5c2e", "stroke-width": 3 }, g);
    el("line", { x1: b.x, y1: b.y, x2: hx, y2: hy, stroke: "#7a5c2e", "stroke-width": 3 }, g);
    el("circle", { cx: hx, cy: hy, r: 14, fill: hb.resource ? resourceColor(hb.resource) : "#fff", stroke: "#7a5c2e" }, g);
    const t = el("text", { x: hx, y: hy + 4, "text-anchor": "middle", class: "harbor-text" }, g);
    t.textContent = `${hb.ratio}:1`;
    title(g, `harbor ${hb.path}: ${hb.ratio}:1 ${hb.resource || "any resource"}`);
  }

  for (const p of board.paths) {
    const [a, b] = p.ends.map((e) => point.get(e));
    const g = el("g", { class: "path", "data-label": p.label }, gp);
    // A wide invisible line makes the path easy to hover and click.
    el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "hit", "stroke-width": 14, stroke: "transparent" }, g);
    if (p.piece) {
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "#222", "stroke-width": 9, "stroke-linecap": "round" }, g);
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: seatColor(p.piece.owner), "stroke-width": 6, "stroke-linecap": "round", class: "piece" }, g);
    }
    title(g, `${p.label}${p.piece ? `: ${p.piece.owner} ${p.piece.kind}` : ""}`);
    const click = pick(`path:${p.label}`, p.label);
    if (click) {
      g.classList.add("target");
      el("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "glow", "stroke-width": 6 }, g);
      g.addEventListener("click", click);
    }
  }

  for (const n of board.intersections) {
    const p = point.get(n.label);
    if (!p) continue;
    const g = el("g", { class: "node", "data-label": n.label }, gn);
    el("circle", { cx: p.x, cy: p.y, r: 11, fill: "transparent", class: "hit" }, g);
    if (n.piece) {
      const fill = seatColor(n.piece.owner);
      if (/city/.test(n.piece.kind)) {
        el("rect", { x: p.x - 11, y: p.y - 11, width: 22, height: 22, fill, stroke: "#222", "stroke-width": 2, class: "piece city" }, g);
      } else {
        el("polygon", {
          points: `${p.x - 8},${p.y + 8} ${p.x + 8},${p.y + 8} ${p.x + 8},${p.y - 2} ${p.x},${p.y - 10} ${p.x - 8},${p.y - 2}`,
          fill, stroke: "#222", "stroke-width": 2, class: "piece settlement",
        }, g);
      }
    }
    title(g, `${n.label}${n.piece ? `: ${n.piece.owner} ${n.piece.kind}` : ""}`);
    const click = pick(`intersection:${n.label}`, n.label);
    if (click) {
      g.classList.add("target");
      el("circle", { cx: p.x, cy: p.y, r: 8, class: "glow" }, g);
      g.addEventListener("click", click);
    }
  }
  return svg;
}
