// A whole Rivals theme game in the browser (The Era of Gold, its real rules: 12 points),
// played by clicks alone against a greedy bot, to a winner shown on the page. Along the
// way: the principality grows wide and never covers the side panel (its `end` stays
// clickable), and red's page offers no action out of turn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startWeb, screenshot } from '../lib.mjs';
import { Seat, watchOutOfTurn, outOfTurn, sidePanelCovered } from '../driver.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// The game below ends in about 160 clicks; one still going past this is a failure.
const MAX_CLICKS = 600;

const hasSlot = (a) => a.action.args.some((x) => 'Slot' in x);
// What a simple player leaves alone while it can: trades (with the bank, a region, or a
// card's trade such as the Merchant Caravan: two sets of cards), removals, swaps.
const avoided = (a) => /^(trade|offer|counter|accept|reject|remove|swap|rearrange|exchange)\b/.test(a.text) ||
  (a.action.args.length === 2 && a.action.args.every((x) => 'Cards' in x));

/**
 * A simple player: ready; roll; a resource to choose taken in turn (not always the same);
 * a build in a slot; any other action but those avoided; end. At the end of a turn in
 * which it built nothing, it exchanges a card of its hand (in turn) under a stack that
 * still has cards, else keeps: a hand of cards it cannot build would stall it.
 */
function player() {
  let turn = 0;
  let built = true;
  return (u) => {
    const acts = u.legal.actions;
    const find = (f) => acts.find(f);
    const stackHas = (n) => { const z = (u.view.zones || {})[`stack${n}`]; return z && z.count > 0; };
    const chooses = acts.filter((a) => /^choose /.test(a.text) && a.text !== 'choose skip');
    const exchanges = acts.filter((a) => /^exchange /.test(a.text) && stackHas(a.text.split(' ').pop()));
    const entry = find((a) => a.text === 'ready') ||
      (chooses.length ? chooses[turn++ % chooses.length] : null) ||
      (!built && exchanges.length ? exchanges[turn++ % exchanges.length] : null) ||
      find((a) => a.text === 'roll') ||
      find((a) => hasSlot(a) && /^build /.test(a.text)) ||
      find((a) => !avoided(a) && a.text !== 'end') ||
      find((a) => a.text === 'end') ||
      find((a) => !avoided(a)) || acts[0];
    if (entry.text === 'roll') built = false;
    if (/^(build|play) /.test(entry.text)) built = true;
    return entry;
  };
}

test('a whole Rivals theme game against a greedy bot, played by clicks alone', async () => {
  const t0 = Date.now();
  const web = await startWeb(['--variant', 'rivals_gold', '--seed', '4', '--bots', 'greedy', '--bot-pace', '0']);
  try {
    const page = await browser.newPage();
    await watchOutOfTurn(page, 1);
    const red = new Seat(page);
    await page.goto(web.link('seat 1'));
    const choose = player();
    let u;
    let slotClicks = 0;
    let ends = 0;
    let widest = 0;
    for (;;) {
      u = await red.waitTurn();
      if (u.status.winner != null) break;
      assert.ok(red.clicks < MAX_CLICKS, `the game is still going after ${MAX_CLICKS} clicks (${u.view.players.map((p) => `${p.color} ${p.points ?? p.public_points}`).join(', ')})`);
      const entry = choose(u);
      if (hasSlot(entry)) slotClicks += 1;
      if (entry.text === 'end') {
        ends += 1;
        // The side panel uncovered however wide the principality has grown.
        assert.deepEqual(await sidePanelCovered(page), [], `the side panel is covered (turn ${u.status.turn})`);
        widest = Math.max(widest, await page.locator('#principality .grid .cards').first().evaluate((e) => e.scrollWidth));
      }
      await red.click(entry, u);
    }
    const winner = u.view.winner;
    assert.ok(winner, 'the game has a winner');
    await page.waitForFunction(() => document.querySelector('#prompt .winner'));
    assert.match(await page.locator('#prompt').textContent(), /wins the game/);
    assert.ok(slotClicks > 10 && ends > 10, `red built in slots (${slotClicks}) and ended turns (${ends}) by clicks`);
    const seen = await outOfTurn(page);
    assert.ok(seen.drawn > 20, `red's page drew blue's turns (${seen.drawn} updates)`);
    assert.deepEqual(seen.offered, [], "red's page offers nothing while blue acts");
    console.log(`  rivals_gold: ${winner} won after ${red.clicks} clicks by red, ${((Date.now() - t0) / 1000).toFixed(1)} s; red's grid ${widest} px wide`);
    await screenshot(page, 'rivals-gold-played');
    // The widest grid in narrower windows: it scrolls in its own box, the panel stays clear.
    for (const [width, height] of [[1024, 768], [820, 700], [600, 800]]) {
      await page.setViewportSize({ width, height });
      assert.deepEqual(await sidePanelCovered(page), [], `the side panel is covered at ${width}x${height}`);
    }
    // The check itself finds the fault it looks for: the table's overflow let out as it was
    // before style.css kept it in (each grid and the table drawn past their boxes).
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.evaluate(() => {
      for (const e of document.querySelectorAll('#table, #principality .grid')) e.style.overflow = 'visible';
    });
    assert.ok((await sidePanelCovered(page)).length > 0, 'a grid drawn past the table is found over the side panel');
  } finally {
    await web.stop();
  }
});
