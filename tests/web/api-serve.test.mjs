// api-serve.test.mjs — the serving presets through the API (issue 25, the
// new-user trial's item 6): /api/vocab names them, POST /api/plan ranks a
// serve workload by cost per million output tokens with the latency targets
// of the body (the CLI's --tpot-ms/--ttft-s), the same document as `plan
// --format json`; a training plan's option with a serve workload, or a
// target with a training one, is a 400 naming it; POST /api/fabrics answers
// for serving as `fabrics` does.
import { execFileSync } from 'node:child_process';
import { assert, check, done, http, CF } from './lib.mjs';

function cli(args) {
  try {
    return { rc: 0, out: execFileSync(CF, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { rc: e.status, out: e.stdout || '', err: e.stderr || '' };
  }
}
const post = (path, body) => http(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

await check('GET /api/vocab lists the serve presets among the workloads, and as serve_workloads', async () => {
  const r = await http('/api/vocab');
  assert.equal(r.status, 200);
  const serve = r.json.serve_workloads;
  assert.ok(Array.isArray(serve));
  for (const w of ['deepseek-v3-serve', 'llama3-70b-serve', 'llama3-405b-serve', 'qwen3-235b-serve']) {
    assert.ok(serve.includes(w), `${w} in serve_workloads`);
    assert.ok(r.json.workloads.includes(w), `${w} in workloads`);
  }
  assert.ok(!serve.includes('llama3-70b') && !serve.includes('deepseek-v3'), 'training presets are not serve ones');
});

await check('POST /api/plan with a serve preset and targets is `plan --tpot-ms --ttft-s --format json`', async () => {
  const r = await post('/api/plan', { workload: 'deepseek-v3-serve', tpot_ms: 40, ttft_s: 3, top: 5 });
  assert.equal(r.status, 200, r.text.slice(0, 300));
  assert.equal(r.json.kind, 'serve');
  assert.deepEqual(r.json.targets, { tpot_ms: 40, ttft_s: 3 });
  assert.ok(r.json.ranked.length > 0 && r.json.ranked.length <= 5);
  const cost = r.json.ranked.map(x => x.cost_per_m_output);
  assert.deepEqual(cost, [...cost].sort((a, b) => a - b), 'ranked by cost per million output tokens');
  for (const row of r.json.ranked) {
    assert.ok(row.decode.tpot_ms <= 40 + 1e-9 && row.prefill.ttft_s <= 3 + 1e-9, row.offering_id);
    assert.ok(row.why.includes(row.decode.layout), 'the why names the decode layout');
  }
  assert.ok(!('scaling' in r.json), 'no training curve for a serve plan');
  const c = cli(['plan', '--workload', 'deepseek-v3-serve', '--tpot-ms', '40', '--ttft-s', '3', '--top', '5', '--format', 'json']);
  assert.equal(c.rc, 0, c.err);
  assert.deepEqual(r.json, JSON.parse(c.out));
});

await check('POST /api/plan for a serve preset counts the unranked by kind, every one once', async () => {
  const r = await post('/api/plan', { workload: 'llama3-405b-serve' });
  assert.equal(r.status, 200);
  const total = (r.json.unranked_by_kind || []).reduce((a, k) => a + k.count, 0);
  assert.equal(total, r.json.unranked.length);
});

await check('POST /api/plan: a target with a training workload, a training option with a serve one, a bad target: 400 naming it', async () => {
  let r = await post('/api/plan', { workload: 'llama3-70b', tpot_ms: 30 });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /'tpot_ms' takes a serve workload/);
  r = await post('/api/plan', { workload: 'deepseek-v3-serve', deadline_h: 100 });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /deadline_h is a training plan's option/);
  r = await post('/api/plan', { workload: 'deepseek-v3-serve', objective: 'time' });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /objective is a training plan's option/);
  r = await post('/api/plan', { workload: 'deepseek-v3-serve', tpot_ms: 0 });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /tpot_ms/);
  r = await post('/api/plan', { workload: 'deepseek-v3-serve', ttft_s: 'soon' });
  assert.equal(r.status, 400);
  assert.match(r.json.error.message, /ttft_s/);
  // the default objective (cost) is the serve plan's own, and a page sends it
  r = await post('/api/plan', { workload: 'deepseek-v3-serve', objective: 'cost', top: 1 });
  assert.equal(r.status, 200, r.text.slice(0, 300));
});

await check('POST /api/fabrics with a serve preset is `fabrics --format json` (flags a list of words)', async () => {
  const body = { workload: 'deepseek-v3-serve', gpu: 'H100-SXM', nodes: 4 };
  const r = await post('/api/fabrics', body);
  assert.equal(r.status, 200, r.text.slice(0, 300));
  assert.equal(r.json.kind, 'serve');
  for (const f of r.json.fabrics) assert.ok(f.flags.every(x => typeof x === 'string'), `${f.network} flags ${JSON.stringify(f.flags)}`);
  const c = cli(['fabrics', '--workload', 'deepseek-v3-serve', '--gpu', 'H100-SXM', '--nodes', '4', '--format', 'json']);
  assert.equal(c.rc, 0, c.err);
  assert.deepEqual(r.json, JSON.parse(c.out));
});

done();
