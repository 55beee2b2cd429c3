// The UI benchmark of `make bench`, run by bench/ui.go: the JavaScript the
// browser loads for /signin and for the dashboard (raw, gzip-compressed as
// a server would send it, and as actually sent), the largest contentful
// paint of /signin beside that of a static page with the same kind of
// content (the baseline: what the browser needs without the app), and what
// a signed-in customer waits for: from navigation to the dashboard's first
// meaningful paint (the account loaded and the shell drawn: the plan badge
// painted), its LCP, and the switch between two tabs of a dashboard page
// (pointer on the tab for 200 ms, as a hand does, then a click, until the
// new panel is painted). Headless Debian Chromium driven by playwright-core
// from e2e/node_modules, a fresh profile and context per load. Prints one
// JSON object on stdout.
//
// Environment: BENCH_BASE_URL (the api), BENCH_UI_SESSION (JSON: token,
// token_expiry, account_id, email), BENCH_LCP_RUNS (default 5), CHROMIUM.
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import http from 'node:http';

const require = createRequire(new URL('../../e2e/package.json', import.meta.url));
const { chromium } = require('playwright-core');

const base = process.env.BENCH_BASE_URL ?? 'http://127.0.0.1:18280';
const session = JSON.parse(process.env.BENCH_UI_SESSION ?? 'null');
const runs = Number(process.env.BENCH_LCP_RUNS ?? 5);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true, // adds --headless; a new context per load gives a fresh profile
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

/** A fresh context (empty cache and storage), optionally signed in. */
async function freshPage(signedIn) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  if (signedIn) {
    await context.addInitScript((s) => {
      localStorage.setItem('auth_token', s.token);
      localStorage.setItem('auth_token_expiry', s.token_expiry);
      localStorage.setItem('account_id', s.account_id);
      localStorage.setItem('auth_email', s.email);
      localStorage.setItem(`onboarding_${s.account_id}`, 'done');
    }, session);
  }
  const page = await context.newPage();
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(String(e)));
  return page;
}

/**
 * Loads url and measures every script response. The JS a page needs is what
 * it had fetched when its ready element first showed; what it fetched after
 * (the sign-in page prefetches the dashboard's code once the user reaches
 * for it: a key press stands for that here) is
 * counted apart, as prefetch.
 */
async function scripts(url, signedIn, ready) {
  const page = await freshPage(signedIn);
  const pending = [];
  // In the page: the resources already fetched when the ready element
  // first shows (Node's view of "shown" lags on a busy machine).
  await page.addInitScript((sel) => {
    const check = () => {
      if (window.__readyResources || !document.querySelector(sel)) return;
      window.__readyResources = performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname);
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true });
  }, ready);
  let inFlight = 0;
  let lastActivity = Date.now();
  page.on('request', (req) => { if (req.resourceType() === 'script') { inFlight++; lastActivity = Date.now(); } });
  const settled = (req) => { if (req.resourceType() === 'script') { inFlight--; lastActivity = Date.now(); } };
  page.on('requestfinished', settled);
  page.on('requestfailed', settled);
  page.on('response', (res) => {
    if (res.request().resourceType() !== 'script') return;
    pending.push((async () => {
      const body = await res.body();
      const headers = await res.allHeaders();
      return {
        url: new URL(res.url()).pathname, raw: body.length, gzip: gzipSync(body).length,
        wire: Number(headers['content-length'] ?? body.length), encoding: headers['content-encoding'] ?? 'identity',
      };
    })());
  });
  await page.goto(url);
  await page.locator(ready).first().waitFor({ timeout: 15000 });
  // A hand on the keyboard: /signin fetches the dashboard's code on the
  // user's first intent (a key, a pointer, focus), not on a timer.
  await page.keyboard.press('Shift');
  // Quiet: no script in flight or started for 1 s (networkidle is latched
  // at the first idle moment and would miss a prefetch that starts later).
  while (inFlight > 0 || Date.now() - lastActivity < 1000) await page.waitForTimeout(100);
  const atReady = new Set(await page.evaluate(() => window.__readyResources ?? []));
  const all = await Promise.all(pending);
  const files = all.filter((f) => atReady.has(f.url));
  const later = all.filter((f) => !atReady.has(f.url));
  const sum = (xs, k) => xs.reduce((n, f) => n + f[k], 0);
  const out = {
    url: new URL(page.url()).pathname, files: files.length, raw_bytes: sum(files, 'raw'), gzip_bytes: sum(files, 'gzip'),
    wire_bytes: sum(files, 'wire'), encodings: [...new Set(files.map((f) => f.encoding))],
    prefetch_files: later.length, prefetch_gzip_bytes: sum(later, 'gzip'),
    largest: files.sort((a, b) => b.gzip - a.gzip).slice(0, 5).map((f) => `${f.url} ${f.gzip}`), errors: page.errors,
  };
  await page.context().close();
  return out;
}

/** The largest contentful paint of one fresh load of url, in ms. */
async function lcp(url) {
  const page = await freshPage(false);
  await page.goto(url, { waitUntil: 'networkidle' });
  const entry = await page.evaluate(() => new Promise((resolve) => {
    let last = null;
    new PerformanceObserver((list) => { for (const e of list.getEntries()) last = e; })
      .observe({ type: 'largest-contentful-paint', buffered: true });
    setTimeout(() => resolve(last && { ms: last.startTime, element: last.element?.tagName ?? '', size: last.size }), 300);
  }));
  await page.context().close();
  return entry;
}

/**
 * One fresh signed-in load of the dashboard: ms from navigation to the frame
 * that paints the plan badge (account loaded, shell drawn), and the LCP.
 */
async function dashboardLoad(url) {
  const page = await freshPage(true);
  await page.addInitScript(() => {
    const bench = (window.__kudosBench = { shell: null, lcp: null });
    const mark = () => {
      if (bench.pending || !document.querySelector('[data-testid="plan-badge"]')) return;
      bench.pending = true;
      requestAnimationFrame(() => { bench.shell = performance.now(); });
    };
    new MutationObserver(mark).observe(document, { childList: true, subtree: true });
    new PerformanceObserver((list) => { for (const e of list.getEntries()) bench.lcp = e.startTime; })
      .observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.__kudosBench.shell !== null, null, { timeout: 15000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(300);
  const out = await page.evaluate(() => ({ shell_ms: window.__kudosBench.shell, lcp_ms: window.__kudosBench.lcp }));
  out.errors = page.errors;
  return { page, out };
}

/**
 * Switches to the tab named label of the page's tab bar: the pointer rests
 * on it 200 ms (the router preloads the route and its data on intent), then
 * a click; ms from the click to the frame painted once the tab is current
 * and its panel is not pending.
 */
async function switchTab(page, label) {
  const tab = page.locator('main nav a', { hasText: label }).first();
  await tab.hover();
  await page.waitForTimeout(200);
  return page.evaluate((label) => new Promise((resolve, reject) => {
    const link = [...document.querySelectorAll('main nav a')].find((a) => a.textContent.trim() === label);
    if (!link) { reject(new Error(`no tab ${label}`)); return; }
    const t0 = performance.now();
    const done = () => link.getAttribute('aria-current') === 'page' && !document.querySelector('main [aria-busy="true"]');
    const check = () => {
      if (!done()) return;
      observer.disconnect();
      requestAnimationFrame(() => resolve(performance.now() - t0));
    };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    setTimeout(() => { observer.disconnect(); reject(new Error(`tab ${label} not shown in 10 s`)); }, 10000);
    link.click();
  }), label);
}

/** The labels of the tabs of the page's tab bar. */
const tabLabels = (page) => page.$$eval('main nav a', (as) => as.map((a) => a.textContent.trim()));

// The baseline page: a sign-in card's worth of static HTML and CSS.
const staticPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Kudos</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;margin:0;background:#f4f4f5}main{max-width:28rem;margin:4rem auto;background:#fff;
border-radius:12px;padding:2rem}label,input,button{display:block;width:100%;margin:.5rem 0}</style></head>
<body><main><h1>Sign in to Kudos</h1><p>Welcome back. Sign in to collect and share the testimonials of your customers.</p>
<form><label>E-mail<input type="email"></label><label>Password<input type="password"></label><button>Sign in</button></form>
</main></body></html>`;
const server = http.createServer((_, res) => { res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }); res.end(staticPage); });
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const staticURL = `http://127.0.0.1:${server.address().port}/`;

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length ? s[Math.floor((s.length - 1) / 2)] : 0; };
try {
  const signin = await scripts(`${base}/signin`, false, 'input[type=email]');
  const dashboard = session
    ? await scripts(`${base}/dashboard/${session.account_id}`, true, '[data-testid="plan-badge"]')
    : null;
  const appRuns = [];
  const baseRuns = [];
  await lcp(`${base}/signin`); // warm the server and the browser once, unmeasured
  for (let i = 0; i < runs; i++) {
    appRuns.push(await lcp(`${base}/signin`));
    baseRuns.push(await lcp(staticURL));
  }
  const shellRuns = [];
  const lcpRuns = [];
  const tabRuns = [];
  const dashErrors = [];
  if (session) {
    const dash = `${base}/dashboard/${session.account_id}`;
    await (await dashboardLoad(dash)).page.context().close(); // warm, unmeasured
    for (let i = 0; i < runs; i++) {
      const { page, out } = await dashboardLoad(dash);
      shellRuns.push(out.shell_ms);
      if (out.lcp_ms !== null) lcpRuns.push(out.lcp_ms);
      dashErrors.push(...out.errors);
      // Tabs: billing's two, there and back, in the app (no reload).
      await page.goto(`${dash}/billing/invoices`);
      await page.locator('main nav a[aria-current="page"]').first().waitFor({ timeout: 15000 });
      await page.waitForLoadState('networkidle');
      const [first, second] = await tabLabels(page);
      tabRuns.push(await switchTab(page, second), await switchTab(page, first));
      await page.context().close();
    }
  }
  const ok = (xs) => xs.filter(Boolean).map((x) => x.ms);
  process.stdout.write(`${JSON.stringify({
    chromium: browser.version(), signin, dashboard,
    lcp_signin_ms: ok(appRuns), lcp_signin_median_ms: median(ok(appRuns)),
    lcp_signin_element: appRuns.find(Boolean)?.element ?? '',
    lcp_baseline_ms: ok(baseRuns), lcp_baseline_median_ms: median(ok(baseRuns)),
    dashboard_shell_ms: shellRuns, dashboard_shell_median_ms: median(shellRuns),
    dashboard_lcp_ms: lcpRuns, dashboard_lcp_median_ms: median(lcpRuns),
    tab_switch_ms: tabRuns, tab_switch_median_ms: median(tabRuns), dashboard_errors: dashErrors,
  })}\n`);
} finally {
  server.close();
  await browser.close();
}
