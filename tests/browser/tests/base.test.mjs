// A base game in the browser, played by clicks alone against 3 greedy bots: the set-up
// placements on the SVG board, rolls, builds and ends of turn, to the game's end; the board
// and the log change with each; red's page never receives another seat's hidden cards and
// offers no action while a bot has the turn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, startWeb, screenshot } from '../lib.mjs';
import { Seat, choose, leakedHiddenCards, othersSteals, watchOutOfTurn, outOfTurn } from '../driver.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser.close(); });

// Clicks a whole game may take: the game below ends in fewer (about 60); a game still going
// past this is a failure, not a pass.
const MAX_CLICKS = 1500;

test('a whole base game against 3 bots, played by clicks alone', async () => {
  const web = await startWeb(['--seed', '7', '--option', 'starting_pieces=false', '--bots', 'greedy', '--bot-pace', '0']);
  try {
    const page = await browser.newPage();
    // Out of turn red's page offers nothing but a discard on a 7 (the rules give it that).
    await watchOutOfTurn(page, 1, ['discard']);
    const red = new Seat(page);
    await page.goto(web.link('seat 1'));
    let u = await red.waitTurn();
    assert.equal(u.role, 'red');
    assert.match(u.legal.actions[0].text, /^settlement /, 'the game opens on red placing a settlement');
    const logBefore = await page.locator('#log li').count();
    // The first settlement: the intersection is a highlighted target, then holds a piece.
    const first = u.legal.actions.find((a) => a.text.startsWith('settlement '));
    const spot = first.text.split(' ')[1];
    assert.equal(await page.locator(`#board g.node[data-label="${spot}"] .piece`).count(), 0);
    await red.click(first, u);
    await page.waitForFunction((s) => document.querySelector(`#board g.node[data-label="${s}"] .piece`), spot);
    assert.ok(await page.locator('#log li').count() > logBefore, 'the log tells the settlement');
    await page.waitForFunction(() => [...document.querySelectorAll('#log li')].some((li) => /settlement/.test(li.textContent)));
    // Then every action by clicks, to the end.
    let rolled = false;
    let ended = false;
    for (;;) {
      u = await red.waitTurn();
      if (u.status.winner != null) break;
      assert.ok(red.clicks < MAX_CLICKS, `the game is still going after ${MAX_CLICKS} clicks`);
      const entry = choose(u.legal.actions);
      if (entry.text === 'roll') rolled = true;
      if (entry.text === 'end') ended = true;
      await red.click(entry, u);
    }
    assert.ok(rolled && ended, 'red rolled and ended turns by clicks');
    const winner = u.view.winner;
    assert.ok(winner, 'the game has a winner');
    await page.waitForFunction(() => document.querySelector('#prompt .winner'));
    assert.match(await page.locator('#prompt').textContent(), /wins the game/);
    assert.ok(await page.locator('#log li').count() > 50, 'the log grew through the game');
    assert.deepEqual(leakedHiddenCards(red.updates(), 'red'), [], "red's page never got another seat's hidden cards");
    assert.deepEqual(othersSteals(red.updates(), 'red'), [], "nor the card of a steal between two others");
    assert.ok(red.updates().length > 100);
    const seen = await outOfTurn(page);
    assert.ok(seen.drawn > 20, `red's page drew the bots' turns (${seen.drawn} updates)`);
    assert.deepEqual(seen.offered, [], "red's page offers no action while a bot acts");
    console.log(`  base: ${winner} won after ${red.clicks} clicks by red, ${red.updates().length} updates`);
    await screenshot(page, 'base-end');
  } finally {
    await web.stop();
  }
});
