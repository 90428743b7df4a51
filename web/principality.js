// Placeholder for the Rivals principality (a card grid with stores): a plain list of each
// grid's slots. The drawing proper is webtest's (issue 34); the page calls
// `renderPrincipality(view, el, { legal, act })` when the view has grids or no hex board.

export function renderPrincipality(view, el) {
  el.textContent = "";
  for (const grid of view.grids || []) {
    const h = document.createElement("h3");
    h.textContent = `${grid.name || "grid"}${grid.owner ? " of " + grid.owner : ""}`;
    el.appendChild(h);
    const ul = document.createElement("ul");
    for (const s of grid.slots) {
      if (!s.cards.length) continue;
      const li = document.createElement("li");
      li.textContent = `${s.label}: ${s.cards.join(", ")}${s.store ? " (store " + JSON.stringify(s.store) + ")" : ""}`;
      ul.appendChild(li);
    }
    el.appendChild(ul);
  }
}
