// Live updates where JavaScript runs: the pages work without it (a
// pending submission's page refreshes itself), this only makes them live.
//
// A browser opens at most six connections to one server over HTTP/1.1, and
// an event stream holds one for as long as its page is open: seven tabs of
// the judge, each with its own stream, and the seventh never loads. So the
// tabs of a browser share one stream: one tab (the leader) holds it and
// relays every event to the others through a BroadcastChannel; when it
// closes, another takes over. The leader is elected with the Web Locks API
// where the page is a secure context (HTTPS, localhost), else with a
// heartbeat in localStorage (plain HTTP on a classroom's LAN). A browser
// with neither holds a stream per tab, closed while the tab is hidden.
(function () {
  const user = document.body.dataset.user;
  if (!window.EventSource || !user) return;
  const KINDS = ['submission', 'ranking', 'announcement', 'clarification', 'counterexample'];
  const name = 'mayan-judge-live:' + user;

  let reloading = false;
  // Never throw away what the user is typing: reload only idle pages.
  const typing = () => [...document.querySelectorAll('textarea, input:not([type=hidden]):not([type=checkbox])')]
    .some((el) => el.value !== '');
  const reload = () => {
    if (reloading || typing()) return;
    reloading = true;
    setTimeout(() => location.reload(), 300);
  };
  // The lines of the ranking that changed, put in place (the page is
  // reloaded when a contestant comes or goes, or the freeze begins or ends).
  const applyRanking = (table, r) => {
    if (!r.lines) return reload();
    if (r.removed.length || (table.dataset.frozen === 'yes') !== r.frozen) return reload();
    const body = table.tBodies[0];
    const rows = [...body.rows];
    for (const l of r.lines) {
      const row = rows.find((tr) => tr.dataset.name === l.name);
      if (!row || (row.dataset.dq === '1') !== l.disqualified) return reload();
      row.dataset.score = l.score;
      row.dataset.penalty = l.penalty;
      row.querySelector('.rank').textContent = l.rank || '–';
      row.querySelector('.score').textContent = l.score;
      const penalty = row.querySelector('.penalty');
      if (penalty) penalty.textContent = l.penalty;
      row.querySelector('.tries').textContent = l.tries + (l.pending ? ' + ' + l.pending + '?' : '');
    }
    // The server's order: disqualified last, then score, penalty, name.
    const key = (tr) => [+tr.dataset.dq, -tr.dataset.score, +tr.dataset.penalty, tr.dataset.name];
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x[3] < y[3] ? -1 : x[3] > y[3] ? 1 : 0;
    });
    rows.forEach((tr) => body.appendChild(tr));
  };
  // One event, from this tab's stream or relayed by the leader.
  const handle = (kind, data) => {
    if (kind === 'submission') {
      const s = JSON.parse(data);
      document.querySelectorAll('[data-sub="' + s.id + '"]').forEach((el) => {
        const cell = el.classList.contains('status') ? el : el.querySelector('.status');
        if (cell) { cell.textContent = s.status; cell.className = 'status ' + s.class; }
        if (s.final && el.id === 'status' && el.dataset.final !== 'yes') reload();
      });
    } else if (kind === 'ranking') {
      const table = document.getElementById('ranking');
      if (table) applyRanking(table, JSON.parse(data));
    } else if (kind === 'announcement') {
      if (document.getElementById('announcements')) reload();
    } else if (kind === 'clarification') {
      if (document.getElementById('clarifications')) reload();
    } else if (kind === 'counterexample') {
      // A submission's page waiting for its counterexample shows it.
      const c = document.getElementById('counterexample');
      const s = JSON.parse(data);
      if (c && c.dataset.state === 'searching' && document.querySelector('[data-sub="' + s.submission + '"]#status')) reload();
    }
  };
  // What this tab does, for the browser tests: `leader` (holds the shared
  // stream, connected), `follower` (hears the leader), `own` (a stream of
  // its own: no BroadcastChannel).
  const state = (s) => { document.documentElement.dataset.live = s; };

  // The stream of this tab; `relay` also hands every event to the others.
  let stream = null;
  const open = (relay) => {
    if (stream) return;
    stream = new EventSource('/events');
    stream.onopen = () => state(relay ? 'leader' : 'own');
    KINDS.forEach((kind) => stream.addEventListener(kind, (e) => {
      handle(kind, e.data);
      if (relay) relay.postMessage({ kind, data: e.data });
    }));
  };
  const close = () => {
    if (stream) { stream.close(); stream = null; state('follower'); }
  };
  // A page kept for Back would hold the stream (and the lead); closed when
  // left, and reloaded (live again) when back.
  addEventListener('pageshow', (e) => { if (e.persisted) location.reload(); });

  if (!window.BroadcastChannel) {
    // Alone: a stream while the tab is shown.
    const sync = () => (document.hidden ? close() : open(null));
    document.addEventListener('visibilitychange', sync);
    addEventListener('pagehide', close);
    sync();
    return;
  }
  const channel = new BroadcastChannel(name);
  state('follower');
  channel.onmessage = (e) => {
    if (e.data && e.data.kind && !stream) handle(e.data.kind, e.data.data);
    if (e.data && e.data.bye) elect();
  };
  addEventListener('pagehide', () => {
    const led = !!stream;
    close();
    if (led) {
      release();
      channel.postMessage({ bye: true });
    }
  });
  let release = () => {};
  let elect = () => {};

  if (navigator.locks) {
    // The lock is held for the life of the page: the browser releases it
    // when the tab closes (or crashes) and grants it to the next tab waiting.
    navigator.locks.request(name, () => new Promise((done) => {
      release = done;
      open(channel);
    }));
    return;
  }

  // localStorage: the leader writes {id, at} every 2 s; a tab that finds it
  // older than 10 s (or gone, or told `bye`) claims it, and leads if its
  // claim is still there a moment later (the last writer of racing tabs wins).
  const me = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const key = name;
  const read = () => { try { return JSON.parse(localStorage.getItem(key)) || null; } catch (_) { return null; } };
  const write = () => { try { localStorage.setItem(key, JSON.stringify({ id: me, at: Date.now() })); } catch (_) {} };
  let beat = null;
  release = () => {
    clearInterval(beat);
    const now = read();
    if (now && now.id === me) localStorage.removeItem(key);
  };
  elect = () => {
    if (stream) return;
    const now = read();
    if (now && now.id !== me && Date.now() - now.at < 10000) return;
    write();
    setTimeout(() => {
      const won = read();
      if (!won || won.id !== me || stream) return;
      open(channel);
      beat = setInterval(() => {
        const held = read();
        if (held && held.id !== me) { close(); clearInterval(beat); return; }
        write();
      }, 2000);
    }, 150 + Math.random() * 100);
  };
  addEventListener('storage', (e) => { if (e.key === key && e.newValue === null) elect(); });
  setInterval(elect, 3000);
  elect();
})();
