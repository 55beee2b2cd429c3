// The Lighthouse benchmark of `make bench ARGS='-only lighthouse'`, run by
// bench/lighthouse.go (or alone, see below): Lighthouse's performance
// category on the mobile preset (its default config: a Moto G-class screen,
// simulated slow 4G and 4× CPU slowdown) for /signin, a signed-in customer's
// dashboard, billing and team pages. Each page is measured RUNS times, each
// in a fresh headless Debian Chromium (chrome-launcher gives it a fresh
// profile); the session is written into that profile's localStorage the way
// the sign-in screen stores it, on a page that loads no script, before
// Lighthouse navigates (its storage reset is off so the session stays; the
// cache is empty anyway). Prints one JSON object on stdout: per page the
// median score and the runs' score, FCP, LCP, TBT, speed index, CLS, the
// main thread's work by group (mainthread-work-breakdown), the scripts that
// cost the most (bootup-time), the machine's load average at each run's
// start and Lighthouse's benchmarkIndex (how fast this CPU was at that
// moment: a quiet recent laptop scores about 1500-2500; below that, the
// simulated 4× slowdown multiplies a machine that is already slow).
//
// BENCH_LH_CPU=calibrated: instead of the preset's fixed 4× slowdown, the
// slowdown that turns this machine, as fast as it is at that moment, into
// the preset's phone: Lighthouse's benchmarkIndex measured in the page just
// before the run, divided by the phone's (a Moto G Power 2022 scores about
// 264, DevTools' CPU calibration), at least 1. The 4× assumes a quiet desktop
// of about 1000; on a loaded machine (benchmarkIndex 100-450) 4× simulates a
// phone several times slower than the preset's, so this mode is what the
// same page gives on a quiet machine, as near as one can measure under load.
//
// Lighthouse is not a dependency of the project: it lives in the tools cache
// (LIGHTHOUSE_DIR, default ~/.cache/kudos/lighthouse), where bench/run.sh
// installs it on first use.
//
// Environment: BENCH_BASE_URL (the app), BENCH_UI_SESSION (JSON: token,
// token_expiry, account_id, email; without it the script signs a user up
// through the api and the dev mailbox, as e2e/lib.mjs does), BENCH_LH_RUNS
// (default 3), BENCH_LH_PAGES (default signin,dashboard,billing,team),
// BENCH_LH_REPORTS (a folder for each run's full JSON report), CHROMIUM.
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const toolsDir = process.env.LIGHTHOUSE_DIR ?? join(homedir(), '.cache', 'kudos', 'lighthouse');
const tools = createRequire(join(toolsDir, 'package.json'));
const load = async (name) => import(pathToFileURL(tools.resolve(name)).href);
const { default: lighthouse } = await load('lighthouse');
const chromeLauncher = await load('chrome-launcher');
const { default: puppeteer } = await load('puppeteer-core');
const { pageFunctions } = await import(pathToFileURL(join(dirname(tools.resolve('lighthouse')), 'lib', 'page-functions.js')).href);

const base = process.env.BENCH_BASE_URL ?? 'http://127.0.0.1:18280';
const runs = Number(process.env.BENCH_LH_RUNS ?? 3);
const pages = (process.env.BENCH_LH_PAGES ?? 'signin,dashboard,billing,team').split(',');
const reports = process.env.BENCH_LH_REPORTS;
const calibrated = process.env.BENCH_LH_CPU === 'calibrated';
/** The benchmarkIndex of the preset's phone (DevTools' CPU calibration: Moto G Power 2022). */
const PHONE_BENCHMARK_INDEX = 264;
const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Signs a user up through the api and the dev mailbox, activates it and names its account. */
async function newSession() {
  const email = `lighthouse-${Date.now()}@example.com`;
  const browserKey = randomBytes(32).toString('base64url');
  const call = async (method, path, body, token) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  await call('POST', '/v1/auth/signup', { firstname: 'Ada', lastname: 'Lovelace', email, password: 'Secret1!',
    opt_in_marketing: false, opt_in_terms_of_use: true, preferred_language: 'en', root_domain: base, browser_key: browserKey });
  for (let i = 0; i < 120; i++) {
    const { messages } = await call('GET', `/dev/mailbox?to=${encodeURIComponent(email)}`);
    const link = messages.flatMap((m) => m.text.split(/\s+/)).find((w) => w.includes('confirm-email?token='));
    if (link) {
      const s = await call('PUT', '/v1/auth/activate-user', { token: new URL(link).searchParams.get('token'), browser_key: browserKey });
      await call('PATCH', `/v1/accounts/${s.account_id}`, { name: 'Analytical Engines' }, s.token);
      return { token: s.token, token_expiry: s.token_expiry, account_id: s.account_id, email };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no activation mail for ${email}`);
}

const median = (xs) => {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (!s.length) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// The browser of the run in progress: stopped with this script (bench/lighthouse.go
// interrupts it on a timeout), so that no Chromium outlives the benchmark.
let running = null;
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    Promise.resolve(running?.kill()).finally(() => process.exit(130));
  });
}

/** One Lighthouse run of url in a fresh Chromium, signed in with session when given. */
async function measure(url, session) {
  const load1 = loadavg()[0];
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM ?? '/usr/bin/chromium', chromeFlags: flags });
  running = chrome;
  try {
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}`, defaultViewport: null });
    const page = await browser.newPage();
    // The session as the sign-in screen stores it, on the app's origin, from a
    // file that runs no script (nothing of the app is cached before the run).
    await page.goto(`${base}/favicon.svg`);
    await page.evaluate((s) => {
      localStorage.setItem('language', 'en');
      if (!s) return;
      localStorage.setItem('auth_token', s.token);
      localStorage.setItem('auth_token_expiry', s.token_expiry);
      localStorage.setItem('account_id', s.account_id);
      localStorage.setItem('auth_email', s.email);
      localStorage.setItem(`onboarding_${s.account_id}`, 'done');
    }, session ?? null);
    const settings = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true };
    if (calibrated) {
      const index = await page.evaluate(`(${pageFunctions.computeBenchmarkIndex})()`);
      settings.throttling = { cpuSlowdownMultiplier: Math.max(1, index / PHONE_BENCHMARK_INDEX) };
    }
    const result = await lighthouse(url, settings, undefined, page);
    await browser.disconnect();
    const lhr = result.lhr;
    const audit = (id) => lhr.audits[id];
    const num = (id) => audit(id)?.numericValue ?? null;
    const breakdown = Object.fromEntries((audit('mainthread-work-breakdown')?.details?.items ?? [])
      .map((i) => [i.group, Math.round(i.duration)]));
    const bootup = (audit('bootup-time')?.details?.items ?? []).slice(0, 6)
      .map((i) => ({ url: i.url.replace(base, ''), total: Math.round(i.total), scripting: Math.round(i.scripting),
        parse: Math.round(i.scriptParseCompile) }));
    const longTasks = (audit('long-tasks')?.details?.items ?? []).slice(0, 5)
      .map((i) => ({ url: i.url.replace(base, ''), start: Math.round(i.startTime), ms: Math.round(i.duration) }));
    return {
      final_url: lhr.finalDisplayedUrl.replace(base, ''), score: Math.round((lhr.categories.performance.score ?? 0) * 100),
      fcp_ms: num('first-contentful-paint'), lcp_ms: num('largest-contentful-paint'), tbt_ms: num('total-blocking-time'),
      si_ms: num('speed-index'), cls: num('cumulative-layout-shift'), tti_ms: num('interactive'),
      mainthread_ms: num('mainthread-work-breakdown'), bootup_ms: num('bootup-time'), breakdown, bootup, long_tasks: longTasks,
      lcp_element: audit('largest-contentful-paint-element')?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '',
      benchmark_index: lhr.environment.benchmarkIndex, cpu_slowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier, load1, runtime_error: lhr.runtimeError?.message ?? null,
      report: reports ? result.report : undefined,
    };
  } finally {
    await chrome.kill();
    running = null;
  }
}

const session = process.env.BENCH_UI_SESSION ? JSON.parse(process.env.BENCH_UI_SESSION) : await newSession();
const urls = {
  signin: [`${base}/signin`, null],
  dashboard: [`${base}/dashboard/${session.account_id}`, session],
  billing: [`${base}/dashboard/${session.account_id}/billing`, session],
  team: [`${base}/dashboard/${session.account_id}/team`, session],
};
if (reports) mkdirSync(reports, { recursive: true });
const out = { lighthouse: null, cpu: calibrated ? 'calibrated' : '4x', pages: {} };
for (const name of pages) {
  const [url, s] = urls[name] ?? [];
  if (!url) throw new Error(`unknown page ${name} (signin, dashboard, billing, team)`);
  const all = [];
  for (let i = 0; i < runs; i++) {
    // Lighthouse now and then loses a trace on a busy machine (NO_NAVSTART): that run once more.
    let r = await measure(url, s);
    if (r.runtime_error) r = await measure(url, s);
    if (reports) writeFileSync(join(reports, `${name}-${i + 1}.json`), r.report);
    delete r.report;
    all.push(r);
    process.stderr.write(`lighthouse ${name} run ${i + 1}: score ${r.score}, FCP ${Math.round(r.fcp_ms)} ms, LCP ${Math.round(r.lcp_ms)} ms, `
      + `TBT ${Math.round(r.tbt_ms)} ms (load ${r.load1.toFixed(2)}, benchmarkIndex ${r.benchmark_index}, CPU ${r.cpu_slowdown.toFixed(2)}×)\n`);
  }
  // A run Lighthouse could not measure (e.g. no trace: NO_NAVSTART) is listed, not counted.
  const ok = all.filter((r) => !r.runtime_error);
  const med = (k) => median(ok.map((r) => r[k]));
  out.pages[name] = { url: url.replace(base, ''), score: med('score'), fcp_ms: med('fcp_ms'), lcp_ms: med('lcp_ms'),
    tbt_ms: med('tbt_ms'), si_ms: med('si_ms'), cls: med('cls'), load1: med('load1'), benchmark_index: med('benchmark_index'), runs: all };
}
const { default: pkg } = await import(pathToFileURL(tools.resolve('lighthouse/package.json')).href, { with: { type: 'json' } });
out.lighthouse = pkg.version;
process.stdout.write(`${JSON.stringify(out)}\n`);
