// A plain script, run after the page is parsed (deferred, after csp-setup.js). It starts the portal once the browser
// has painted the page the server sent (for a signed-in screen, the frame and the screen's skeleton): it asks for
// the modules the page names (`portal-preload`: what the entry imports, and the screen's own) and runs the entry
// (`portal-entry`). Asked for at once, those scripts would share a phone's bandwidth with the page and its style
// sheet and hold that first paint for a second. A page in the background paints nothing: it starts at once.
(() => {
  const entry = document.querySelector('meta[name="portal-entry"]')?.getAttribute('content');
  if (!entry) return;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const meta of document.querySelectorAll('meta[name="portal-preload"]')) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = meta.getAttribute('content');
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  };
  if (document.visibilityState !== 'visible') return start();
  // a task queued from the next animation frame runs once that frame is on screen
  requestAnimationFrame(() => setTimeout(start, 0));
  // (and should no frame come, the portal starts anyway)
  setTimeout(start, 250);
})();
