// Watching a simulated game (`catan web --watch rows.jsonl#N`): the slider, back and
// forward, the log in sync and the board redrawn, replayed to its end.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, startWeb, screenshot, catanBin } from '../lib.mjs';

let browser;
let dir;
before(async () => {
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catan-watch-'));
  execFileSync(catanBin, ['sim', '--variant', 'base', '--games', '2', '--seed', '3', '--jobs', '1', '--out', path.join(dir, 'rows.jsonl')]);
});
after(async () => {
  await browser.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const pieces = (page) => page.locator('#board .piece').count();

test('a simulated game replayed to its end in the watching page', async () => {
  const web = await startWeb(['--watch', `${path.join(dir, 'rows.jsonl')}#1`]);
  try {
    const page = await browser.newPage();
    await page.goto(web.link('spectator'));
    await page.waitForSelector('#watch-slider');
    const total = Number(await page.locator('#watch-slider').getAttribute('max'));
    assert.ok(total > 100, `a whole game has many steps (${total})`);
    // Opened at the end: the winner shown, every log line read.
    await page.waitForFunction((t) => document.querySelector('#watch').dataset.at === String(t), total);
    assert.match(await page.locator('#watch-at').textContent(), new RegExp(`step ${total} / ${total}, \\w+ won`));
    const atEnd = await pieces(page);
    // Back to the set-up: the beginner board's starting pieces only.
    await page.click('#watch-start');
    await page.waitForFunction(() => document.querySelector('#watch').dataset.at === '0');
    const atStart = await pieces(page);
    assert.ok(atStart < atEnd, `more pieces at the end (${atEnd}) than at the start (${atStart})`);
    assert.equal(await page.locator('#watch-log li.later').count(), total, 'every step after the one shown is greyed');
    // Forward one step, then the slider to the middle: the log follows.
    await page.click('#watch-forward');
    await page.waitForFunction(() => document.querySelector('#watch').dataset.at === '1');
    assert.equal(await page.locator('#watch-log li.now').getAttribute('data-step'), '1');
    const mid = Math.floor(total / 2);
    await page.locator('#watch-slider').fill(String(mid));
    await page.waitForFunction((m) => document.querySelector('#watch').dataset.at === String(m), mid);
    assert.equal(await page.locator('#watch-log li.later').count(), total - mid);
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((m) => document.querySelector('#watch').dataset.at === String(m - 1), mid);
    await page.click('#watch-back');
    await page.waitForFunction((m) => document.querySelector('#watch').dataset.at === String(m - 2), mid);
    // And to the end again.
    await page.click('#watch-end');
    await page.waitForFunction((t) => document.querySelector('#watch').dataset.at === String(t), total);
    assert.equal(await pieces(page), atEnd);
    await screenshot(page, 'watch');
  } finally {
    await web.stop();
  }
});
