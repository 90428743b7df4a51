// Plays a `catan web` page by clicks, as a person would: the legal actions are read from
// the updates the page receives (its WebSocket frames), one is chosen, and the control the
// page drew for it is clicked (a place on the SVG board, a slot of a principality, a
// button, a select and its button, cards of the picker). Nothing is sent on the socket by
// the test itself.
import { recordFrames } from './lib.mjs';

const PLACE = { Hex: ['hexes', 'hex'], Intersection: ['intersections', 'node'], Path: ['paths', 'path'] };

export class Seat {
  constructor(page) {
    this.page = page;
    this.frames = recordFrames(page);
    this.clicks = 0;
  }

  /** The updates the page was pushed, in order. */
  updates() {
    return this.frames.filter((f) => f.json && f.json.push === 'update').map((f) => f.json);
  }

  last() {
    const u = this.updates();
    return u[u.length - 1];
  }

  /** Waits until the last update lets this page act, or the game is over, and the page
   * drew it; that update. */
  async waitTurn(timeout = 20000) {
    const t0 = Date.now();
    for (;;) {
      const u = this.last();
      if (u && (u.status.winner != null || ((u.legal && u.legal.actions) || []).length > 0)) {
        const drawn = await this.page.evaluate(() => document.body.dataset.version);
        if (drawn === String(u.version) && this.last() === u) return u;
      }
      if (Date.now() - t0 > timeout) throw new Error(`no turn for this page in ${timeout} ms; last update: ${JSON.stringify(u && u.status)}`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }

  /** Clicks the control of legal action `entry` ({text, action}) of update `u`. */
  async click(entry, u) {
    const page = this.page;
    const { action } = entry;
    const kinds = action.args.map((a) => Object.keys(a)[0]);
    const before = this.last().version;
    this.clicks += 1;
    const place = action.args.find((a) => PLACE[Object.keys(a)[0]]);
    const slot = action.args.find((a) => 'Slot' in a);
    if (place && u.view.board) {
      const [kind, value] = Object.entries(place)[0];
      const [list, cls] = PLACE[kind];
      const label = typeof value === 'number' ? u.view.board[list][value].label : value;
      await page.locator(`#board g.${cls}.target[data-label="${label}"]`).click({ force: true });
      await this.pickFromMenu('#menu', entry.text);
    } else if (slot) {
      await page.locator(`#principality [data-slot="${slot.Slot}"]`).click();
      await this.pickFromMenu('#principality .menu', entry.text);
    } else if (kinds.length === 1 && kinds[0] === 'Cards' &&
        (await page.locator('#picker').isVisible() || await page.locator(`#actions button[data-pick="${action.name}"]`).count())) {
      // Cards picked one by one: the picker opens by itself (a discard) or by its button.
      const opener = page.locator(`#actions button[data-pick="${action.name}"]`);
      if (await opener.count()) await opener.click();
      const want = action.args[0].Cards;
      for (const [card, n] of want) {
        for (let i = 0; i < n; i++) await page.locator(`#picker .card.pick[data-card="${card}"]:not(.chosen)`).first().click();
      }
      await page.locator('#picker > button').click();
    } else {
      const button = page.locator(`#actions button[data-action="${entry.text}"]`);
      if (await button.count()) {
        await button.click();
      } else {
        const group = page.locator('#actions .group', { has: page.locator('option', { hasText: entry.text }) }).first();
        await group.locator('select').selectOption({ label: entry.text });
        await group.locator('button').click();
      }
    }
    // The answer: an update after this one (the action is played and pushed).
    const t0 = Date.now();
    while (this.last().version === before) {
      const err = await page.locator('#error').isVisible() ? await page.locator('#error').textContent() : null;
      if (err) throw new Error(`'${entry.text}' was refused: ${err}`);
      if (Date.now() - t0 > 10000) throw new Error(`no update after clicking '${entry.text}'`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async pickFromMenu(selector, text) {
    const menu = this.page.locator(selector);
    // A place named by several actions opens a small menu of them.
    await this.page.waitForTimeout(0);
    if (await menu.isVisible().catch(() => false)) {
      await menu.locator('button', { hasText: text }).filter({ hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }).first().click();
    }
  }
}

/** A simple player for tests: builds what it can, moves the robber, never trades. */
export function choose(actions) {
  const order = [/^city /, /^settlement /, /^build /, /^road /, /^roll$/, /^robber /, /^steal /, /^discard /,
    /^buy /, /^play knight/, /^(?!offer|trade|accept|reject|counter).*/];
  for (const re of order) {
    const found = actions.find((a) => re.test(a.text));
    if (found) return found;
  }
  return actions.find((a) => a.text === 'end') || actions[0];
}

/** Hidden zones of other seats must be sizes only in every update this page got. */
export function leakedHiddenCards(updates, me, zones = ['hand', 'dev', 'dev_new']) {
  const leaks = [];
  for (const u of updates) {
    for (const p of u.view.players) {
      if (p.color === me) continue;
      for (const z of zones) {
        const zone = p.zones[z];
        if (zone === undefined) continue;
        const keys = Object.keys(zone);
        if (Array.isArray(zone) || keys.some((k) => k !== 'count' && k !== 'top')) leaks.push(`${p.color}.${z} = ${JSON.stringify(zone)} (update ${u.version})`);
      }
    }
  }
  return leaks;
}

/** Log lines this page got that tell a steal it took no part in (`white stole ore from blue`). */
export function othersSteals(updates, me) {
  const lines = updates.flatMap((u) => (u.log || []).map((l) => l.text));
  return lines.filter((t) => {
    const m = /^(\w+) stole (.+) from (\w+)/.exec(t);
    return m && m[1] !== me && m[3] !== me;
  });
}

/**
 * Records, at every update the page draws while another seat is to act, what it offers
 * that the rules do not give this seat then: a group of action buttons (`#actions .group`,
 * by its action's name) not in `allowed` (base's discard on a 7 is), or the trade button.
 * Installed before the page loads; `outOfTurn(page)` answers what it found.
 */
export async function watchOutOfTurn(page, seat, allowed = []) {
  await page.addInitScript(({ seat, allowed }) => {
    window.__outOfTurn = { drawn: 0, offered: [] };
    const check = () => {
      const toAct = document.body.dataset.toAct;
      if (!toAct || toAct === String(seat)) return;
      window.__outOfTurn.drawn += 1;
      for (const g of document.querySelectorAll('#actions .group')) {
        if (!allowed.includes(g.dataset.name)) window.__outOfTurn.offered.push(`${g.textContent} (seat ${toAct} to act, update ${document.body.dataset.version})`);
      }
      const trade = document.getElementById('trade-open');
      if (trade && !trade.hidden) window.__outOfTurn.offered.push(`Trade... (seat ${toAct} to act)`);
    };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(check).observe(document.body, { attributes: true, attributeFilter: ['data-version'] });
    });
  }, { seat, allowed });
}

export async function outOfTurn(page) {
  return page.evaluate(() => window.__outOfTurn);
}

/**
 * Whether the side panel is uncovered: its box and the table's do not overlap, no part of
 * the table is found over it, and at the centre of every visible control of the panel (and
 * of its headings) the element there is that one or inside it. Answers the list of what is
 * covered (empty: none).
 */
export async function sidePanelCovered(page) {
  return page.evaluate(() => {
    const side = document.getElementById('side').getBoundingClientRect();
    const table = document.getElementById('table').getBoundingClientRect();
    const out = [];
    const overlap = table.left < side.right && side.left < table.right && table.top < side.bottom && side.top < table.bottom;
    if (overlap) out.push(`#table (${Math.round(table.left)}..${Math.round(table.right)}) overlaps #side (${Math.round(side.left)}..${Math.round(side.right)})`);
    // Content overflowing the table's box (a wide grid): nothing of the table is found at
    // any point of the panel, sampled every 12 px.
    const tableEl = document.getElementById('table');
    for (let x = Math.max(0, side.left); x < Math.min(side.right, window.innerWidth) && out.length < 5; x += 12) {
      for (let y = Math.max(0, side.top); y < Math.min(side.bottom, window.innerHeight); y += 12) {
        const hit = document.elementFromPoint(x, y);
        if (hit && tableEl.contains(hit)) {
          out.push(`the table's ${hit.dataset.slot || hit.className || hit.tagName} at (${Math.round(x)}, ${Math.round(y)}) over the side panel`);
          break;
        }
      }
    }
    for (const e of document.querySelectorAll('#side button, #side select, #side h3, #side #log')) {
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || e.closest('[hidden]')) continue;
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === e || e.contains(hit))) out.push(`${e.tagName.toLowerCase()} '${e.textContent.slice(0, 20)}' under ${hit ? hit.outerHTML.slice(0, 60) : 'nothing'}`);
    }
    return out;
  });
}
