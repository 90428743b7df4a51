// A Rivals principality (any variant's slot grids) drawn as its card grid: every grid of
// the view (one per player) with its cards in their slots (regions with their dice
// numbers and stored resources, roads, settlements, cities, buildings and expansions;
// a pile's covered cards named under its top card) around the used columns, and every
// slot a legal action names clickable (build in a slot, pay from or store on a region).
//
// Generic, as the terminal's drawing (src/slots/render.rs): it knows the view's grids and
// the card names, not what a card does. Labels are spreadsheet-like (`K2`); the rows of
// all grids are numbered one after the other (seat 1's rows 1-5, seat 2's 6-10, ...).
//
//   renderPrincipality(view, el, { legal, act, seat })
//     view:  a view of `catan serve`'s protocol (`view.grids`, `view.players`)
//     el:    the element to draw into (emptied first)
//     legal: the seat's legal actions as the protocol's `legal` lists them
//            ([{text, action: {name, args}}]); slots they name are clickable
//     act:   called with the chosen legal action's `action` object (and the whole entry,
//            {text, action}, second) on a click
//     seat:  the colour of the seat looking (its grid drawn first, marked as its own)
//
// Its styles are in style.css (`.principality`).

// Colours of the region cards by their first word; any other card is drawn plain.
const REGION_COLORS = {
  forest: '#cfe8c4', hills: '#f2c9b0', pasture: '#e3f5c8', fields: '#fbeeb0',
  mountains: '#dcdcdc', gold: '#fbe59a',
};

/** The column number (1-based) of letters `K`, `AB`. */
function columnNumber(letters) {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** `K7` → { col: 11, row: 7 } (the row as labels number it), or null. */
export function parseLabel(label) {
  const m = /^([A-Za-z]+)(\d+)$/.exec(String(label));
  return m ? { col: columnNumber(m[1]), row: Number(m[2]) } : null;
}

/** A card's name as players read it, and its dice number when it ends with one. */
function cardName(name) {
  const m = /^(.*?)_(\d+)$/.exec(name);
  if (m) return { text: m[1].replace(/_/g, ' '), dice: Number(m[2]) };
  return { text: name.replace(/_/g, ' '), dice: null };
}

/** The slot labels an action names (its `{Slot: "K2"}` arguments). */
function slotsOf(entry) {
  const args = (entry.action && entry.action.args) || [];
  return args.filter((a) => a && typeof a === 'object' && 'Slot' in a).map((a) => String(a.Slot));
}

/** Every grid with its first row's number, as the engine numbers them (one after the other). */
export function gridsOf(view) {
  let next = 1;
  return (view.grids || []).map((g) => {
    const first = next;
    next += g.rows;
    return { ...g, first };
  });
}

/**
 * Draws every grid of `view` into `el`. Answers the map of clickable labels to the legal
 * actions naming them (for tests and callers).
 */
export function renderPrincipality(view, el, opts = {}) {
  const doc = el.ownerDocument || document;
  const legal = opts.legal || [];
  const act = opts.act || (() => {});
  const seat = opts.seat || (view && typeof view.observer === 'string' ? view.observer : null);
  el.textContent = '';
  el.classList.add('principality');
  const grids = gridsOf(view || {});
  if (grids.length === 0) {
    el.hidden = true;
    return new Map();
  }
  el.hidden = false;
  // Which legal actions name each slot.
  const byLabel = new Map();
  for (const entry of legal) {
    for (const label of slotsOf(entry)) {
      if (!byLabel.has(label)) byLabel.set(label, []);
      if (!byLabel.get(label).includes(entry)) byLabel.get(label).push(entry);
    }
  }
  // The seat's own grid first.
  const ordered = [...grids].sort((a, b) => (b.owner === seat) - (a.owner === seat));
  for (const grid of ordered) {
    el.appendChild(drawGrid(doc, grid, byLabel, act, grid.owner === seat));
  }
  return byLabel;
}

function drawGrid(doc, grid, byLabel, act, own) {
  const box = doc.createElement('section');
  box.className = 'grid';
  box.dataset.owner = grid.owner || '';
  const title = doc.createElement('div');
  title.className = 'grid-title';
  const name = (grid.name || 'grid').replace(/_/g, ' ');
  title.textContent = grid.owner ? `${grid.owner}'s ${name}` : name;
  if (own) {
    const mine = doc.createElement('span');
    mine.className = 'own';
    mine.textContent = ' (yours)';
    title.appendChild(mine);
  }
  box.appendChild(title);
  // The slots by local (row, col), 1-based as the view gives them.
  const at = new Map();
  for (const s of grid.slots || []) at.set(`${s.row},${s.col}`, s);
  // Columns: those in use and those a legal action names in this grid, one more each side.
  const cols = (grid.slots || []).map((s) => s.col);
  for (const label of byLabel.keys()) {
    const p = parseLabel(label);
    if (p && p.row >= grid.first && p.row < grid.first + grid.rows) cols.push(p.col);
  }
  if (cols.length === 0) cols.push(Math.ceil(grid.cols / 2));
  const lo = Math.max(1, Math.min(...cols) - 1);
  const hi = Math.min(grid.cols, Math.max(...cols) + 1);
  const cards = doc.createElement('div');
  cards.className = 'cards';
  cards.style.gridTemplateColumns = `repeat(${hi - lo + 1}, minmax(74px, 96px))`;
  for (let row = 1; row <= grid.rows; row++) {
    for (let col = lo; col <= hi; col++) {
      const label = `${letters(col)}${grid.first + row - 1}`;
      cards.appendChild(drawSlot(doc, at.get(`${row},${col}`), label, byLabel.get(label), act));
    }
  }
  box.appendChild(cards);
  return box;
}

function letters(col) {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function drawSlot(doc, slot, label, actions, act) {
  const cell = doc.createElement('div');
  cell.className = 'slot';
  cell.dataset.slot = label;
  const cardsHere = (slot && slot.cards) || [];
  if (cardsHere.length > 0) {
    cell.classList.add('filled');
    const top = cardName(cardsHere[cardsHere.length - 1]);
    const color = REGION_COLORS[top.text.split(' ')[0]];
    if (color) cell.style.background = color;
    const name = doc.createElement('div');
    name.className = 'name';
    name.textContent = top.text;
    if (top.dice !== null) {
      const dice = doc.createElement('span');
      dice.className = 'dice';
      dice.textContent = String(top.dice);
      dice.title = `produces on a roll of ${top.dice}`;
      name.appendChild(dice);
    }
    cell.appendChild(name);
    if (cardsHere.length > 1) {
      const under = doc.createElement('div');
      under.className = 'under';
      under.textContent = `on ${cardsHere.slice(0, -1).map((c) => cardName(c).text).join(', ')}`;
      cell.appendChild(under);
    }
    cell.title = `${label}: ${cardsHere.map((c) => c.replace(/_/g, ' ')).join(' under ')}`;
  }
  if (slot && (slot.store > 0 || (cardsHere.length > 0 && cardName(cardsHere[cardsHere.length - 1]).dice !== null))) {
    const store = doc.createElement('div');
    store.className = 'store';
    store.dataset.store = String(slot.store || 0);
    store.title = `${slot.store || 0} stored`;
    store.textContent = '●'.repeat(slot.store || 0);
    // A region holds up to 3: the free places drawn hollow.
    const free = Math.max(0, 3 - (slot.store || 0));
    if (cardName(cardsHere[cardsHere.length - 1] || '').dice !== null && free > 0) {
      const empty = doc.createElement('span');
      empty.className = 'empty';
      empty.textContent = '○'.repeat(free);
      store.appendChild(empty);
    }
    cell.appendChild(store);
  }
  const tag = doc.createElement('span');
  tag.className = 'label';
  tag.textContent = label;
  cell.appendChild(tag);
  if (actions && actions.length > 0) {
    cell.classList.add('clickable');
    cell.title = `${cell.title ? `${cell.title}\n` : `${label}\n`}${actions.map((a) => a.text).join('\n')}`;
    cell.addEventListener('click', (ev) => {
      ev.stopPropagation();
      if (actions.length === 1) act(actions[0].action, actions[0]);
      else openMenu(doc, cell, actions, act);
    });
  }
  return cell;
}

/** The actions naming one slot, to pick from. */
function openMenu(doc, cell, actions, act) {
  for (const old of doc.querySelectorAll('.principality .menu')) old.remove();
  const menu = doc.createElement('div');
  menu.className = 'menu';
  for (const a of actions) {
    const b = doc.createElement('button');
    b.type = 'button';
    b.textContent = a.text;
    b.dataset.action = a.text;
    b.addEventListener('click', (ev) => {
      ev.stopPropagation();
      menu.remove();
      act(a.action, a);
    });
    menu.appendChild(b);
  }
  // Fixed under the slot: no scrolling container clips it.
  const r = cell.getBoundingClientRect();
  menu.style.position = 'fixed';
  menu.style.left = `${Math.round(r.left)}px`;
  menu.style.top = `${Math.round(r.bottom)}px`;
  cell.appendChild(menu);
  const close = () => { menu.remove(); doc.removeEventListener('click', close); };
  doc.addEventListener('click', close);
}
