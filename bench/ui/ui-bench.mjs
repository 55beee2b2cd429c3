// The UI benchmark of `make bench`, run by bench/ui.go: the JavaScript the
// browser loads for /signin and for the dashboard (raw, gzip-compressed as
// a server would send it, and as actually sent), and the largest contentful
// paint of /signin beside that of a static page with the same kind of
// content (the baseline: what the browser needs without the app). Headless
// Debian Chromium driven by playwright-core from e2e/node_modules, a fresh
// profile and context per load. Prints one JSON object on stdout.
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

/** Loads url and measures every script response. */
async function scripts(url, signedIn, ready) {
  const page = await freshPage(signedIn);
  const pending = [];
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
  await page.goto(url, { waitUntil: 'networkidle' });
  await page.locator(ready).first().waitFor({ timeout: 15000 });
  await page.waitForLoadState('networkidle');
  const files = await Promise.all(pending);
  const sum = (k) => files.reduce((n, f) => n + f[k], 0);
  const out = {
    url: new URL(page.url()).pathname, files: files.length, raw_bytes: sum('raw'), gzip_bytes: sum('gzip'),
    wire_bytes: sum('wire'), encodings: [...new Set(files.map((f) => f.encoding))],
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
    ? await scripts(`${base}/dashboard/${session.account_id}`, true, 'main, nav')
    : null;
  const appRuns = [];
  const baseRuns = [];
  await lcp(`${base}/signin`); // warm the server and the browser once, unmeasured
  for (let i = 0; i < runs; i++) {
    appRuns.push(await lcp(`${base}/signin`));
    baseRuns.push(await lcp(staticURL));
  }
  const ok = (xs) => xs.filter(Boolean).map((x) => x.ms);
  process.stdout.write(`${JSON.stringify({
    chromium: browser.version(), signin, dashboard,
    lcp_signin_ms: ok(appRuns), lcp_signin_median_ms: median(ok(appRuns)),
    lcp_signin_element: appRuns.find(Boolean)?.element ?? '',
    lcp_baseline_ms: ok(baseRuns), lcp_baseline_median_ms: median(ok(baseRuns)),
  })}\n`);
} finally {
  server.close();
  await browser.close();
}
