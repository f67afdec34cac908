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

async function runPlan(lang, w, top, noDeadline) {
  await page.goto(`${process.env.CF_BASE}/?lang=${lang}#plan`);
  await page.waitForFunction(() => document.querySelectorAll('#p-workload option').length > 1);
  await page.selectOption('#p-workload', w);
  if (top) await page.fill('#p-top', String(top));
  if (noDeadline) await page.fill('#p-deadline', '');
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

await check('Spanish: the <title> and the filters\' values (network, provisioning...) are Spanish, the values sent unchanged', async () => {
  const vocab = (await http('/api/vocab')).json;
  await page.goto(`${process.env.CF_BASE}/?lang=es`);
  await page.waitForFunction(() => document.querySelectorAll('#f-provisioning option').length > 1);
  assert.match(await page.title(), /clústeres/);
  const opts = async id => page.locator(`#${id} option`).evaluateAll(os => os.map(o => [o.value, o.textContent]));
  const prov = new Map(await opts('f-provisioning')), net = new Map(await opts('f-network'));
  for (const v of vocab.provisioning) assert.ok(prov.has(v), `provisioning ${v} offered with its value`);
  for (const v of vocab.network) assert.ok(net.has(v), `network ${v} offered with its value`);
  const english = ['none', 'on-demand', 'spot', 'reserved', 'waitlist', 'flex', 'unknown', 'any'];
  const left = [...prov.values(), ...net.values()].filter(t => english.includes(t));
  assert.deepEqual(left, [], 'filter labels left in English');
  assert.equal(net.get('none'), 'ninguna');
  assert.equal(prov.get('on-demand'), 'bajo demanda');
  // the table's network cells: RDMA whose kind no source states
  await page.selectOption('#f-multinode', 'any');
  await page.selectOption('#f-network', 'rdma');
  await page.waitForFunction(() => document.querySelectorAll('#offerings tbody tr').length > 0 && !document.querySelector('#offerings[aria-busy]'));
  assert.ok(new URL(page.url()).search.includes('network=rdma'), `the value sent stays "rdma": ${page.url()}`);
  const cells = await page.locator('#offerings tbody td').allInnerTexts();
  assert.ok(!cells.includes('rdma') && cells.includes('RDMA (sin precisar)'), cells.slice(0, 12).join(' | '));
  // back to English: the labels follow
  await page.selectOption('#lang', 'en');
  assert.match(await page.title(), /multi-node GPU clusters/);
  assert.equal(new Map(await opts('f-provisioning')).get('on-demand'), 'on-demand');
});

await check('Spanish: dates in the locale\'s form wherever the page prints one (table, plan rows, the stale-price assumption)', async () => {
  const short = d => new Intl.DateTimeFormat('es', { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' }).format(new Date(d + 'T00:00:00Z'));
  const long = d => new Intl.DateTimeFormat('es', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(d + 'T00:00:00Z'));
  await page.goto(`${process.env.CF_BASE}/?lang=es`);
  await page.selectOption('#f-multinode', 'any');
  await page.waitForFunction(() => document.querySelectorAll('#offerings tbody tr').length > 20 && !document.querySelector('#offerings[aria-busy]'));
  const table = await page.locator('#offerings tbody').innerText();
  assert.doesNotMatch(table, /\d{4}-\d{2}-\d{2}/, 'an ISO date in the table');
  assert.doesNotMatch(table, /(^|\s)a \d{1,2} [a-z]{3,4}\.? \d{4}/m, '"a 14 abr 2025" in the table');
  const all = (await http('/api/offerings')).json;
  const dated = all.find(o => o.price_age_days === null && /^\d{4}-\d{2}-\d{2}$/.test(o.as_of || ''));
  if (dated) assert.ok(table.includes(short(dated.as_of)), `${dated.id}: ${short(dated.as_of)}`);
  const plan = await runPlan('es', 'llama3-70b', 1000, true);
  const stale = plan.ranked.filter(r => (r.flags || []).includes('stale_price') && /^\d{4}-\d{2}-\d{2}$/.test(r.price_dated || ''));
  assert.ok(stale.length > 0, 'a plan row with a stale price to look at');
  const text = await page.locator('#plan-table').innerText();
  assert.doesNotMatch(text, /\d{4}-\d{2}-\d{2}/, 'an ISO date in the plan');
  for (const r of stale) assert.ok(text.includes(`precio fechado el ${long(r.price_dated)},`), `${r.offering_id}: "precio fechado el ${long(r.price_dated)}"`);
  for (const r of plan.ranked.filter(x => /^\d{4}-\d{2}-\d{2}$/.test(x.price_dated || '')).slice(0, 5))
    assert.ok(text.includes(short(r.price_dated)), `${r.offering_id}: ${short(r.price_dated)}`);
});

await check('one percent form in a sentence: "10 %" (SI, the house form) in the why lines and the goodput, English and Spanish', async () => {
  for (const lang of ['en', 'es']) {
    const plan = await runPlan(lang, 'llama3-70b', 10);
    assert.ok(plan.ranked.length > 0);
    // the library's own sentences
    for (const r of plan.ranked) assert.doesNotMatch(r.why, /\d%/, `API why: ${r.why}`);
    const text = await page.locator('#plan-table').innerText();
    const tight = text.match(/\d%/g) || [];
    assert.deepEqual(tight, [], `a percent without its space on the page (${lang})`);
    assert.match(text, /\d[\u00a0 ]%/, `${lang}: percentages on the page to look at`);
  }
});

await check('E as the CLI prints it: a fraction ("1,37"), the note under the chart with C x memory relief, never "137 %"', async () => {
  const plan = await runPlan('es', 'llama3-70b', 10);
  const e = await page.locator('#plan-table tbody td.num').allInnerTexts();
  const fr = v => new Intl.NumberFormat('es', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(v);
  const eCells = plan.ranked.map(r => fr(r.scaling_efficiency));
  for (const c of eCells) assert.ok(e.some(t => t.replace(/[\s*]/g, '') === c), `E cell ${c}: ${e.slice(0, 8).join(' | ')}`);
  const pts = plan.scaling.flatMap(c => c.points.filter(pt => pt.scaling_note && pt.memory_relief > 1));
  assert.ok(pts.length > 0, 'a point with memory relief above 1 (llama3-70b)');
  const note = await page.locator('#chart-note').innerText();
  assert.match(note, /E \d+,\d\d = C \d+,\d\d \(comunicación y burbujas\) x alivio de memoria \d+,\d\d: no es un escalado del \d+ %/);
  assert.doesNotMatch(note, /\b1\d\d(,\d)? % con/, 'E as a percentage in the note');
  const ticks = await page.locator('#chart-svg svg text.tick').allTextContents();
  assert.ok(!ticks.some(t => t.includes('%')), `chart ticks as percentages: ${ticks.join(' ')}`);
  await page.selectOption('#lang', 'en');
  assert.match(await page.locator('#chart-note').innerText(), /x memory relief \d+\.\d\d: not \d+ % scaling\./);
});

await ctx.close();
rmSync(profile, { recursive: true, force: true });
done();
