// trial-es.mjs — what a new user found on the page in Spanish on a phone
// (issue 23's trial, 2026-12): the row count says how many qualified, not
// only the rows shown; the title and the filters' values in the page's
// language; dates in the locale's form; one percent spacing in generated
// sentences; E as the CLI prints it (a fraction, "memory relief" above 1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { assert, check, done, http } from './lib.mjs';

const post = (path, body) => http(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

await check('/api/plan gives ranked_total, the plans that qualified before top (training and serve)', async () => {
  for (const w of ['llama3-70b', 'deepseek-v3-serve']) {
    const all = await post('/api/plan', { workload: w });
    assert.equal(all.status, 200, all.text.slice(0, 200));
    const n = all.json.ranked.length;
    assert.equal(all.json.ranked_total, n, `${w}: without top, every qualifying row`);
    assert.ok(n > 3, `${w}: ${n} rows, the check needs more than 3`);
    const top = await post('/api/plan', { workload: w, top: 3 });
    assert.equal(top.json.ranked.length, 3);
    assert.equal(top.json.ranked_total, n, `${w}: top 3 keeps the total`);
  }
});

const profile = mkdtempSync(join(tmpdir(), 'cf-chromium-'));
const ctx = await chromium.launchPersistentContext(profile, {
  executablePath: '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run'],
  viewport: { width: 390, height: 844 }, locale: 'es-ES',
});
const page = ctx.pages()[0] || await ctx.newPage();
page.setDefaultTimeout(15000);

async function runPlan(lang, w, top) {
  await page.goto(`${process.env.CF_BASE}/?lang=${lang}#plan`);
  await page.waitForFunction(() => document.querySelectorAll('#p-workload option').length > 1);
  await page.selectOption('#p-workload', w);
  if (top) await page.fill('#p-top', String(top));
  const answer = page.waitForResponse(r => r.url().endsWith('/api/plan'));
  await page.click('#p-run');
  const plan = await (await answer).json();
  await page.waitForSelector('#plan-result:not([hidden])');
  return plan;
}

await check('the plan\'s status says "10 de 33 clasificadas" / "10 of 33 ranked" when top keeps fewer rows', async () => {
  for (const [lang, w, re] of [['es', 'llama3-70b', /^(\d+) de (\d+) clasificadas:/], ['en', 'llama3-70b', /^(\d+) of (\d+) ranked:/],
    ['es', 'deepseek-v3-serve', /^(\d+) de (\d+) clasificadas:/]]) {
    const plan = await runPlan(lang, w, 3);
    assert.ok(plan.ranked_total > 3, `${w}: ${plan.ranked_total} qualify`);
    const m = re.exec(await page.locator('#plan-status').innerText());
    assert.ok(m, `${lang} ${w}: ${await page.locator('#plan-status').innerText()}`);
    assert.deepEqual([+m[1], +m[2]], [3, plan.ranked_total]);
  }
  // every row shown: the plain count
  const plan = await runPlan('es', 'llama3-70b', 1000);
  assert.match(await page.locator('#plan-status').innerText(), new RegExp(`^${plan.ranked.length} clasificadas:`));
});

await ctx.close();
rmSync(profile, { recursive: true, force: true });
done();
