// Live updates where JavaScript runs: the pages work without it (a
// pending submission's page refreshes itself), this only makes them live.
(function () {
  if (!window.EventSource || !document.body.dataset.user) return;
  const es = new EventSource('/events');
  // A page kept for Back would hold one of the browser's six connections
  // to the server; closed when left, and reloaded (live again) when back.
  addEventListener('pagehide', () => es.close());
  addEventListener('pageshow', (e) => { if (e.persisted) location.reload(); });
  let reloading = false;
  // Never throw away what the user is typing: reload only idle pages.
  const typing = () => [...document.querySelectorAll('textarea, input:not([type=hidden]):not([type=checkbox])')]
    .some((el) => el.value !== '');
  const reload = () => {
    if (reloading || typing()) return;
    reloading = true;
    setTimeout(() => location.reload(), 300);
  };
  es.addEventListener('submission', (e) => {
    const s = JSON.parse(e.data);
    document.querySelectorAll('[data-sub="' + s.id + '"]').forEach((el) => {
      const cell = el.classList.contains('status') ? el : el.querySelector('.status');
      if (cell) { cell.textContent = s.status; cell.className = 'status ' + s.class; }
      if (s.final && el.id === 'status' && el.dataset.final !== 'yes') reload();
    });
  });
  es.addEventListener('ranking', () => { if (document.getElementById('ranking')) reload(); });
  es.addEventListener('announcement', () => { if (document.getElementById('announcements')) reload(); });
  es.addEventListener('clarification', () => { if (document.getElementById('clarifications')) reload(); });
})();
