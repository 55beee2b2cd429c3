// The account logo of issue 7 in a real browser, on the fast instance so
// that its worker can be stopped: a real PNG chosen with the file chooser
// uploads with a progress bar straight to the local S3, stays "processing"
// (revalidated every 2.5 s) while no worker runs, and appears from its
// public URL once the worker is back; deleting it brings the placeholder
// back. Client-side checks refuse other files before anything is sent.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { deflateSync } from 'node:zlib';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAST, launch, openPage, apiUser, useSession, api, worker } from './lib.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A real w×h RGB PNG of noise (it does not compress: about 2.4 MB at 900 px). */
function noisePNG(w, h) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; ihdr[9] = 2; // 8-bit RGB
  const rows = Buffer.alloc((w * 3 + 1) * h);
  let seed = 42;
  for (let i = 0; i < rows.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    rows[i] = i % (w * 3 + 1) === 0 ? 0 : seed >>> 24;
  }
  return Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 1 })), chunk('IEND', Buffer.alloc(0))]);
}

test('upload a PNG: progress, processing while the worker is away, the logo from its public URL; delete', { timeout: 180000 }, async () => {
  const page = await openPage(browser.context);
  const user = await apiUser('logo', { base: FAST });
  const account = async () => (await api('GET', `/v1/accounts/${user.account_id}`, undefined, user.token, FAST)).body.account;
  await useSession(page, user, FAST);
  await page.goto(`${FAST}/dashboard/${user.account_id}/account-settings/plan`);
  const input = page.getByLabel('Upload logo');
  await input.waitFor({ state: 'attached' });

  // Client-side checks: nothing is sent for a text file or a file over 10 MB.
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await page.getByText(/PNG or JPEG/i).first().waitFor();
  // Handed over by its path (a sparse file): 10 MB sent through the
  // browser's protocol took over 30 s on a loaded machine.
  const huge = join(mkdtempSync(join(tmpdir(), 'kudos-logo-')), 'huge.png');
  writeFileSync(huge, '');
  truncateSync(huge, 10 * 1024 * 1024 + 1);
  await input.setInputFiles(huge);
  await page.getByText(/10 MB/).first().waitFor();
  assert.equal((await account()).img_url, 'placeholder:none');

  // Every value the progress bar shows is recorded as it happens, so a
  // busy machine cannot make the test miss them.
  await page.evaluate(() => {
    window.progressSeen = [];
    const record = () => {
      const bar = document.querySelector('[role="progressbar"]');
      if (bar) window.progressSeen.push(Number(bar.getAttribute('aria-valuenow')));
    };
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-valuenow'] });
  });
  worker('kill');
  try {
    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: noisePNG(900, 900) });
    await page.getByText('Processing your logo…').first().waitFor({ timeout: 60000 });
    // Chromium reports an upload over loopback in one step: the bar is
    // seen at its start and at 100 % (steps between are unit-tested).
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.length > 0 && seen.at(-1) === 100, `the progress bar was shown and completed: ${seen.join(' ')}`);
    assert.match((await account()).img_url, /^tmp\/logos\//);
    // Still processing a few revalidations later: no worker, no logo.
    await page.waitForTimeout(3000);
    await page.getByText('Processing your logo…').first().waitFor();
  } finally {
    worker('start');
  }

  const logo = page.getByRole('img', { name: 'Logo of Analytical Engines' });
  await logo.waitFor({ timeout: 60000 });
  const acc = await account();
  assert.match(acc.img_url, /^public\/logos\//);
  assert.equal(await logo.getAttribute('src'), acc.logo_url);
  await page.waitForFunction(() => {
    const img = document.querySelector('img[alt="Logo of Analytical Engines"]');
    return img && img.complete && img.naturalWidth === 512;
  }, undefined, { timeout: 15000 });
  const served = await fetch(acc.logo_url);
  assert.equal(served.status, 200);
  assert.equal(served.headers.get('content-type'), 'image/png');

  // Delete, confirmed in a dialog: the placeholder is back.
  await page.getByRole('button', { name: 'Delete logo' }).click();
  const dialog = page.getByRole('alertdialog');
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByLabel('Upload logo').waitFor({ state: 'attached', timeout: 15000 });
  assert.equal(await logo.count(), 0);
  assert.equal((await account()).img_url, 'placeholder:none');
  assert.equal((await fetch(acc.logo_url)).status !== 200, true, 'the public object is gone');
  assert.deepEqual(page.consoleErrors.filter((e) => !/Failed to load resource/.test(e)), []);
  await page.close();
});
