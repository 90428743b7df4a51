// Every edition opens in the browser and keeps a screenshot (target/browser-artifacts/):
// base, family, classic, helpers, base for 6 players, rivals, a theme set (gold), duel.
// A Rivals theme game is played a few actions by clicks on its principality and buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startWeb, screenshot } from '../lib.mjs';
import { Seat } from '../driver.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

const VARIANTS = [
  ['base', ['--variant', 'base']],
  ['family', ['--variant', 'family']],
  ['classic', ['--variant', 'classic']],
  ['helpers', ['--variant', 'base+helpers']],
  ['base-6-players', ['--variant', 'base', '--players', '6']],
  ['rivals', ['--variant', 'rivals']],
  ['rivals-gold', ['--variant', 'rivals_gold']],
  ['rivals-duel', ['--variant', 'rivals_duel']],
];

for (const [name, args] of VARIANTS) {
  test(`${name}: the page draws the game`, async () => {
    const web = await startWeb([...args, '--seed', '3', '--bots', 'none']);
    try {
      const page = await browser.newPage();
      const host = new Seat(page);
      await page.goto(web.link('host'));
      const u = await host.waitTurn();
      const rivals = name.startsWith('rivals');
      if (rivals) {
        await page.waitForSelector('#principality .grid .slot.filled');
        assert.equal(await page.locator('#principality section.grid').count(), 2, 'both principalities');
        assert.ok(await page.locator('#principality .slot .dice').count() >= 12, 'regions with their dice numbers');
      } else {
        await page.waitForSelector('#board svg g.hex');
        assert.equal(await page.locator('#board svg g.hex').count(), u.view.board.hexes.length);
      }
      assert.ok(await page.locator('#log li').count() > 0);
      await screenshot(page, name);
    } finally {
      await web.stop();
    }
  });
}

test('a Rivals theme game: a few actions clicked', async () => {
  const web = await startWeb(['--variant', 'rivals_gold', '--seed', '5', '--bots', 'random', '--bot-pace', '0']);
  try {
    const page = await browser.newPage();
    const red = new Seat(page);
    await page.goto(web.link('seat 1'));
    let slotClicks = 0;
    for (let i = 0; i < 40 && (slotClicks === 0 || red.clicks < 12); i++) {
      const u = await red.waitTurn();
      if (u.status.winner != null) break;
      const acts = u.legal.actions;
      // A build in a slot first (clicked on the principality), else roll, else the first action
      // that is no trade, else end.
      // (Before the game: one swap of regions on the principality, then `ready`.)
      const entry = (slotClicks > 0 && acts.find((a) => a.text === 'ready')) ||
        acts.find((a) => a.action.args.some((x) => 'Slot' in x) && /^build /.test(a.text)) ||
        acts.find((a) => a.action.args.some((x) => 'Slot' in x)) ||
        acts.find((a) => a.text === 'roll') ||
        acts.find((a) => !/^(trade|offer|play merchant)/.test(a.text) && a.text !== 'end') ||
        acts.find((a) => a.text === 'end') || acts[0];
      if (entry.action.args.some((x) => 'Slot' in x)) slotClicks += 1;
      await red.click(entry, u);
    }
    assert.ok(red.clicks >= 8, `red clicked ${red.clicks} actions`);
    assert.ok(slotClicks > 0, 'at least one action clicked on a slot of the principality');
    await screenshot(page, 'rivals-gold-played');
  } finally {
    await web.stop();
  }
});
