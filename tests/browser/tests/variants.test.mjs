// Every edition opens in the browser and keeps a screenshot (target/browser-artifacts/):
// base, family, classic, helpers, base for 6 players, rivals, a theme set (gold), duel.
// (A whole Rivals theme game played by clicks: rivals.test.mjs.)
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
