// Measures `catan web` in headless Chromium, by hand (not a test: no timed assertion):
//   node tests/browser/measure.mjs [ROUNDS] [catan web options...]   (after cargo build --release)
//   e.g. node tests/browser/measure.mjs 8 --players 6
// - open to interactive: from page.goto to the first update drawn with the actions
//   clickable (body[data-version] set and a control in #actions or a target on the board), on a fresh page each round;
// - an action's answer: from the click on `roll`/`end` (hot seat, no bots) to the page
//   having drawn the update it brought (body[data-version] changed).
// Prints the median, the 90th percentile and the worst of each. docs/web.md keeps the figures.
import { launch, startWeb } from './lib.mjs';

const rounds = Number(process.argv[2] || 10);
const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))];
const median = (xs) => quantile(xs, 0.5);
const browser = await launch();
const web = await startWeb(['--seed', '1', '--bots', 'none', ...process.argv.slice(3)]);
try {
  const open = [];
  const answer = [];
  for (let i = 0; i < rounds; i++) {
    const page = await browser.newPage();
    const t0 = performance.now();
    await page.goto(web.link('host'));
    await page.waitForFunction(() => document.body.dataset.version && document.querySelector('#actions button, #board g.target'), null, { polling: 'raf' });
    open.push(performance.now() - t0);
    for (let k = 0; k < 4; k++) {
      // roll or end (or the first legal action's button; a place on the board after a 7)
      const buttons = page.locator('#actions button[data-action="roll"], #actions button[data-action="end"]');
      const anyButton = page.locator('#actions button');
      const targets = page.locator('#board g.target');
      const button = (await buttons.count()) ? buttons.first()
        : (await anyButton.count()) ? anyButton.first()
          : (await targets.count()) ? targets.first() : null;
      if (!button) break; // nothing to click here (another seat's turn): the next round
      const before = await page.evaluate(() => document.body.dataset.version);
      const t1 = performance.now();
      await button.click({ force: true });
      await page.waitForFunction((v) => document.body.dataset.version !== v, before, { polling: 'raf' });
      answer.push(performance.now() - t1);
    }
    await page.close();
  }
  const fmt = (xs) => `median ${median(xs).toFixed(0)} ms, 90% ${quantile(xs, 0.9).toFixed(0)} ms, worst ${Math.max(...xs).toFixed(0)} ms (${xs.length} samples)`;
  console.log(`open to interactive: ${fmt(open)}`);
  console.log(`action's answer:     ${fmt(answer)}`);
} finally {
  await web.stop();
  await browser.close();
}
