// Shared by the browser tests: Debian's Chromium driven by playwright-core (never a browser
// download), `catan web` started on a free port of 127.0.0.1 with its printed links read,
// the WebSocket frames a page receives, and screenshots kept in target/browser-artifacts/.
import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const catanBin = process.env.CATAN_BIN || path.join(root, 'target/release/catan');
export const artifacts = process.env.ARTIFACTS || path.join(root, 'target/browser-artifacts');
export const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

// The flags this machine needs (its network is closed: no background connections, no QUIC).
const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Headless Chromium with a fresh profile, closed by the returned browser's close(). */
export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'catan-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 860 },
  });
  const close = context.close.bind(context);
  context.close = async () => {
    await close();
    fs.rmSync(profile, { recursive: true, force: true });
  };
  return context;
}

/**
 * Starts `catan web ARGS` on a free port (`--port 0`: the server binds one and prints it)
 * and reads its links, one a line as `  WHAT  http://127.0.0.1:PORT/?token=...` (the
 * host's, each human seat's, the spectator's). Resolves to { links: {what: url}, urls,
 * output(), stop() }; the server is killed by stop() (and at exit).
 */
export async function startWeb(args, { timeoutMs = 20000 } = {}) {
  const child = spawn(catanBin, ['web', ...args, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`catan web printed no link in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const look = () => {
      // The links are printed before this line.
      if (/Open a link/.test(out)) { clearTimeout(timer); resolve(); }
    };
    child.stdout.on('data', (d) => { out += d; look(); });
    child.stderr.on('data', (d) => { out += d; look(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`catan web exited (${code}):\n${out}`)); });
  });
  const links = {};
  const urls = [];
  for (const m of out.matchAll(/^\s+(.*?)\s+(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)\s*$/gm)) {
    links[m[1]] = m[2];
    urls.push(m[2]);
  }
  const link = (prefix) => {
    const key = Object.keys(links).find((k) => k.startsWith(prefix));
    if (!key) throw new Error(`no link for '${prefix}' in:\n${out}`);
    return links[key];
  };
  return {
    links,
    urls,
    link,
    output: () => out,
    async stop() {
      process.removeListener('exit', onExit);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => { child.once('exit', r); setTimeout(r, 2000); });
      }
    },
  };
}

/** Every text frame the page receives on its WebSockets, parsed where it is JSON. */
export function recordFrames(page) {
  const frames = [];
  page.on('websocket', (ws) => {
    ws.on('framereceived', ({ payload }) => {
      const text = typeof payload === 'string' ? payload : payload.toString('utf8');
      let json = null;
      try { json = JSON.parse(text); } catch { /* not JSON: kept as text */ }
      frames.push({ text, json });
    });
  });
  return frames;
}

/** Saves a screenshot as target/browser-artifacts/NAME.png; answers its path. */
export async function screenshot(page, name) {
  fs.mkdirSync(artifacts, { recursive: true });
  const file = path.join(artifacts, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Waits until `fn` (run in the page) answers truthy, polling; its last answer. */
export async function until(page, fn, arg, timeout = 10000) {
  const handle = await page.waitForFunction(fn, arg, { timeout, polling: 50 });
  return handle.jsonValue();
}
