// A plain script, run after the page is parsed (deferred, after csp-setup.js). It starts the portal once the browser
// has painted the page the server sent (for a signed-in screen, the frame and the screen's skeleton): it runs the
// stages (`portal-stage`: React DOM, zod, the other libraries) and then the entry (`portal-entry`), one after the other, and asks for
// the modules the page names (`portal-preload`: what the entry imports, and the
// screen's own). Asked for at once, those scripts would share a phone's bandwidth with the page and its style
// sheet and hold that first paint for a second. A page in the background paints nothing: it starts at once.
(() => {
  const entry = document.querySelector('meta[name="portal-entry"]')?.getAttribute('content');
  if (!entry) return;
  let started = false;
  // each link asked for costs the page a little (a fetch starts at once): a few per task, so that none is long
  const PER_TASK = 3;
  const preload = (hrefs) => {
    for (const href of hrefs.slice(0, PER_TASK)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    }
    if (hrefs.length > PER_TASK) setTimeout(() => preload(hrefs.slice(PER_TASK)), 0);
  };
  // runs a module; then, once it is evaluated, the next one in a task of its own
  const run = (srcs) => {
    if (srcs.length === 0) return;
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = srcs[0];
    const next = () => setTimeout(() => run(srcs.slice(1)), 0);
    script.addEventListener('load', next);
    script.addEventListener('error', next);
    document.head.append(script);
  };
  const start = () => {
    if (started) return;
    started = true;
    // the stages (React DOM, zod, the other libraries) are made ready one at a time before the entry, each in a task of
    // its own: made ready by the entry alone, they and the portal held a phone for a quarter of a second
    const stages = [...document.querySelectorAll('meta[name="portal-stage"]')].map((meta) => meta.getAttribute('content'));
    run([...stages, entry]);
    preload([...document.querySelectorAll('meta[name="portal-preload"]')].map((meta) => meta.getAttribute('content')));
  };
  if (document.visibilityState !== 'visible') return start();
  // a task queued from the next animation frame runs once that frame is on screen
  requestAnimationFrame(() => setTimeout(start, 0));
  // (and should no frame come, the portal starts anyway)
  setTimeout(start, 250);
})();
