// Watching a saved or simulated game (`catan web --watch FILE`): a slider over the game's
// steps, back and forward buttons (and the arrow keys), a play button, the log in sync
// (the steps up to the one shown, the last of them marked), and the position redrawn at
// each step from the spectator's view the server sends (src/web/replay.rs: `watch` once,
// then `step` with `to`).
//
//   startReplay({ request, root, draw })
//     request(obj): sends a request on the page's WebSocket, resolves to its answer
//     root:         the element the controls and the log go into
//     draw(view):   draws a view (the board, the principality, players) as the page does
//
// Its styles are in style.css (`.watch`).

function el(doc, tag, attrs = {}, text) {
  const e = doc.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

export async function startReplay({ request, root, draw }) {
  const doc = root.ownerDocument || document;
  root.classList.add('watch');
  root.textContent = '';
  const first = await request({ cmd: 'watch' });
  if (!first.ok) {
    root.textContent = `cannot watch: ${first.error ? first.error.message : 'no answer'}`;
    return null;
  }
  const steps = first.steps || [];
  const total = first.total;
  const controls = el(doc, 'div', { class: 'controls' });
  const start = el(doc, 'button', { id: 'watch-start', type: 'button', title: 'the set-up' }, '|◀');
  const back = el(doc, 'button', { id: 'watch-back', type: 'button', title: 'one step back (←)' }, '◀');
  const play = el(doc, 'button', { id: 'watch-play', type: 'button', title: 'play the steps one after another' }, 'play');
  const forward = el(doc, 'button', { id: 'watch-forward', type: 'button', title: 'one step forward (→)' }, '▶');
  const end = el(doc, 'button', { id: 'watch-end', type: 'button', title: 'the end of the game' }, '▶|');
  const slider = el(doc, 'input', { id: 'watch-slider', type: 'range', min: '0', max: String(total), step: '1' });
  const where = el(doc, 'span', { id: 'watch-at', class: 'where' });
  controls.append(start, back, slider, forward, end, play, where);
  root.appendChild(controls);
  if (first.warning) root.appendChild(el(doc, 'div', { class: 'warning' }, first.warning));
  const log = el(doc, 'ol', { id: 'watch-log', class: 'watch-log', start: '0' });
  const setup = el(doc, 'li', { 'data-step': '0' });
  setup.append(el(doc, 'b', {}, 'set-up'));
  if ((first.setup || []).length) setup.append(el(doc, 'div', { class: 'said' }, first.setup.join(' · ')));
  log.appendChild(setup);
  steps.forEach((s, i) => {
    const li = el(doc, 'li', { 'data-step': String(i + 1) });
    li.append(el(doc, 'b', {}, `${s.color}: `), doc.createTextNode(s.command));
    if (s.messages.length) li.append(el(doc, 'div', { class: 'said' }, s.messages.join(' · ')));
    li.addEventListener('click', () => go(i + 1));
    log.appendChild(li);
  });
  root.appendChild(log);

  let at = first.at;
  let wanted = at;
  let busy = false;
  let timer = null;

  function show(answer) {
    at = answer.at;
    slider.value = String(at);
    slider.setAttribute('aria-valuetext', `step ${at} of ${total}`);
    const v = answer.view || {};
    const who = v.winner ? `, ${v.winner} won` : v.to_act ? `, ${v.to_act} to act` : '';
    where.textContent = `step ${at} / ${total}${who}`;
    for (const li of log.children) {
      const n = Number(li.dataset.step);
      li.classList.toggle('later', n > at);
      li.classList.toggle('now', n === at);
    }
    const now = log.children[at];
    if (now) {
      // Keep the step shown in sight in the log's own scroll area.
      const top = now.offsetTop - log.offsetTop;
      if (top < log.scrollTop || top > log.scrollTop + log.clientHeight - now.offsetHeight) {
        log.scrollTop = Math.max(0, top - log.clientHeight / 2);
      }
    }
    back.disabled = at === 0;
    start.disabled = at === 0;
    forward.disabled = at === total;
    end.disabled = at === total;
    root.dataset.at = String(at);
    draw(v, answer);
  }

  // One request at a time; a slider dragged fast asks only for where it stopped.
  async function go(n) {
    wanted = Math.max(0, Math.min(total, n));
    if (busy) return;
    busy = true;
    try {
      while (wanted !== at) {
        const target = wanted;
        const answer = await request({ cmd: 'step', to: target });
        if (!answer.ok) {
          where.textContent = answer.error ? answer.error.message : 'no answer';
          break;
        }
        show(answer);
      }
    } finally {
      busy = false;
    }
  }

  function stopPlaying() {
    if (timer) clearInterval(timer);
    timer = null;
    play.textContent = 'play';
  }

  start.addEventListener('click', () => { stopPlaying(); go(0); });
  back.addEventListener('click', () => { stopPlaying(); go(wanted - 1); });
  forward.addEventListener('click', () => { stopPlaying(); go(wanted + 1); });
  end.addEventListener('click', () => { stopPlaying(); go(total); });
  slider.addEventListener('input', () => { stopPlaying(); go(Number(slider.value)); });
  play.addEventListener('click', () => {
    if (timer) return stopPlaying();
    if (at === total) go(0);
    play.textContent = 'pause';
    timer = setInterval(() => {
      if (wanted >= total) stopPlaying();
      else go(wanted + 1);
    }, 400);
  });
  doc.addEventListener('keydown', (ev) => {
    if (ev.target && ev.target.tagName === 'INPUT' && ev.target !== slider) return;
    if (ev.key === 'ArrowLeft') { stopPlaying(); go(wanted - 1); ev.preventDefault(); }
    if (ev.key === 'ArrowRight') { stopPlaying(); go(wanted + 1); ev.preventDefault(); }
  });
  show(first);
  return { go, at: () => at, total };
}
