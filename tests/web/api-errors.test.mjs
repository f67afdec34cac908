// api-errors.test.mjs — every 400 of the API names the parameter at fault
// once and what it accepts (an API user sees nothing else), the 404 lists
// the routes, and the line-rate range is the CLI's.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assert, check, done, http, expectError, CF } from './lib.mjs';

const FABRIC = 'gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=ib&nics=8&nic_gbps=400';
const COLL = '/api/predict/collective?collective=all_reduce&bytes=8G&nodes=2';

function cli(args) {
  try {
    return { rc: 0, out: execFileSync(CF, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (e) {
    return { rc: e.status, out: e.stdout || '', err: e.stderr || '' };
  }
}

function bad(r, param, names = []) {
  expectError(r, 400, 'bad_request');
  const m = r.json.error.message;
  assert.ok(m.includes(`'${param}'`), `names '${param}': ${m}`);
  assert.ok(!m.includes('invalid argument'), `says more than "invalid argument": ${m}`);
  assert.ok(!m.includes(`'${param}': ${param}:`), `names the parameter once: ${m}`);
  for (const n of names) assert.ok(m.includes(n), `lists ${n}: ${m}`);
}

// Queries the model refuses after parsing (it answered "invalid argument").
for (const [q, param, names] of [
  [`${COLL}&algo=nvls&${FABRIC}`, 'algo', ['auto', 'ring', 'tree']],
  [`${COLL}&ranks_per_node=16&${FABRIC}`, 'ranks_per_node', ['8 GPUs']],
  // (network none takes no nics, as the CLI; nics=0 is refused by the setter in both)
  [`${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=none`, 'nodes', ['ib', 'roce', 'efa']],
  [`${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=ib&nics=0&nic_gbps=400`, 'nics', []],
  [`/api/predict/collective?collective=unknown&bytes=8G&nodes=2&${FABRIC}`, 'collective', ['all_reduce', 'hypercube']],
  [`${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=unknown&nics=8&nic_gbps=400`, 'network', ['ib', 'tcpxo']],
  [`${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=unknown&network=ib&nics=8&nic_gbps=400`, 'intra', ['pcie4', 'nvl72']],
  [`${COLL}&${FABRIC}&gdr=sometimes`, 'gdr', ['on', 'off', 'partial', 'na']],
  ['/api/offerings?network=carrier-pigeon', 'network', ['ib', 'roce']],
  ['/api/offerings?gpu=H1', 'gpu', ['H100-SXM']],
  ['/api/offerings?multinode=maybe', 'multinode', ['yes', 'no']],
]) {
  await check(`GET ${q.slice(0, 90)}... is a 400 naming '${param}'`, async () => bad(await http(q), param, names));
}

await check('"unknown" is not offered where it is not accepted', async () => {
  for (const q of [`/api/predict/collective?collective=x&bytes=8G&nodes=2&${FABRIC}`,
    `${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=x&network=ib&nics=8&nic_gbps=400`,
    `${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=x&nics=8&nic_gbps=400`]) {
    const r = await http(q);
    expectError(r, 400, 'bad_request');
    assert.ok(!/\bunknown\)/.test(r.json.error.message), r.json.error.message);
  }
});

await check('an offering lacking a fact the model needs is a 400 naming offering', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cf-api-errors-'));
  writeFileSync(join(dir, 'x.csv'), 'id,provider,offering,gpu,gpus_per_node,network,source_url,as_of\n' +
    'api-err-pod,ApiErrTest,Pod,H100-SXM,,tcp,https://example.com/x,2026-11\n');
  const c = cli(['import', join(dir, 'x.csv')]);
  rmSync(dir, { recursive: true, force: true });
  assert.equal(c.rc, 0, c.err);
  bad(await http(`${COLL}&offering=api-err-pod`), 'offering', ['gpus_per_node unknown']);
  bad(await http('/api/audit?offering=api-err-pod', { method: 'POST', body: 'x' }), 'offering', ['expect_gbps']);
  assert.equal(cli(['import', '--remove', 'api-err-pod']).rc, 0);
});

await check('an unknown preset is a 400 listing the presets (the API opens no files)', async () => {
  const r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ workload: 'nope' }) });
  bad(r, 'workload', ['llama3-70b', 'cfd-stencil']);
  assert.ok(!r.json.error.message.includes('readable file'), r.json.error.message);
});

// The plan's own members, refused by the library's setter (cf_plan_opts_set,
// the one `clusterfit plan` calls for its flags) with its bounds (limits.h).
for (const [member, value, names] of [
  ['objective', 'fastest', ['cost or time', "got 'fastest'"]],
  ['objective', 1, ['cost or time', "got '1'"]],
  ['deadline_h', 0, ['from 0.001 to 1e+07', "got '0'"]],
  ['deadline_h', 2e7, ["got '20000000'"]],
  ['budget', -1, ['from 0.001 to 1e+18', "got '-1'"]],
  ['top', 0, ['integer from 1 to 100000', "got '0'"]],
  ['top', 2.5, ["got '2.5'"]],
  ['top', true, ["got 'true'"]],
  ['max_gpus', 0, ['integer from 1 to 1048576', "got '0'"]],
]) {
  await check(`POST /api/plan with ${member} ${JSON.stringify(value)} is a 400 naming '${member}'`, async () => {
    const r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ workload: 'llama3-8b', top: 1, [member]: value }) });
    bad(r, member, names);
    assert.ok(r.json.error.message.startsWith(`parameter '${member}': expects `), r.json.error.message);
  });
}

await check('an unknown workload key is a 400 naming it and the accepted keys', async () => {
  const w = { kind: 'llm', shape: { model: 'llama', layers: 2, hidden: 64, ffn_hidden: 128, heads: 4, seq: 128, vocab: 1000 },
    batch: 8, tokens: 1e6, colour: 'red' };
  const r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ workload: w }) });
  expectError(r, 400, 'bad_request');
  assert.match(r.json.error.message, /colour/);
  assert.match(r.json.error.message, /tokens/);
});

await check('an unknown /api/ path is a 404 listing every route, /api/vocab included', async () => {
  const r = await http('/api/offering');
  expectError(r, 404, 'not_found');
  for (const route of ['/api/offerings', '/api/offerings/{id}', '/api/plan', '/api/audit', '/api/predict/collective', '/api/vocab', '/healthz'])
    assert.ok(r.json.error.message.includes(route), `lists ${route}: ${r.json.error.message}`);
  assert.ok(!r.json.error.message.includes('DESIGN'), r.json.error.message);
});

await check('expect_gbps and nic_gbps accept what the CLI accepts, and refuse the same', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cf-api-errors-'));
  const log = join(dir, 'empty.txt');
  writeFileSync(log, 'x\n');
  try {
    for (const [v, ok] of [['0.0005', false], ['0.001', true], ['1000000', true], ['1100000', false]]) {
      const r = await http(`/api/audit?expect_gbps=${v}`, { method: 'POST', body: 'x' });
      assert.equal(r.status === 200, ok, `API expect_gbps=${v}: ${r.text.slice(0, 200)}`);
      if (!ok) assert.ok(r.json.error.message.includes('0.001 to 1e+06'), r.json.error.message);
      const c = cli(['audit', log, '--expect-gbps', v]);
      assert.equal(c.rc !== 2, ok, `CLI --expect-gbps ${v}: exit ${c.rc}`);
      const p = await http(`${COLL}&gpu=H100-SXM&gpus_per_node=8&intra=nvswitch-nvlink4&network=ib&nics=8&nic_gbps=${v}`);
      assert.equal(p.status === 200, ok, `API nic_gbps=${v}: ${p.text.slice(0, 200)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

await check('POST /api/fabrics takes the same workload member as /api/plan: a name that is no preset (even a file of the server\'s directory, README) is a 400 listing the presets', async () => {
  for (const name of ['README', 'Makefile', 'nope']) {
    const r = await http('/api/fabrics', { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ workload: name, gpu: 'H100-SXM', nodes: 2 }) });
    expectError(r, 400, 'bad_request');
    assert.match(r.json.error.message, /no preset/, `${name}: ${r.json.error.message}`);
    assert.match(r.json.error.message, /llama3-70b/);
  }
});

await check('POST /api/plan needs a JSON content type (415), and a foreign Origin is refused (403)', async () => {
  let r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: JSON.stringify({ workload: 'llama3-8b' }) });
  expectError(r, 415, 'unsupported_media_type');
  r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: 'http://evil.example' }, body: JSON.stringify({ workload: 'llama3-8b' }) });
  expectError(r, 403, 'forbidden_origin');
  r = await http('/api/plan', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ workload: 'Makefile' }) });
  expectError(r, 400, 'bad_request');
  assert.ok(!/invalid JSON|near/.test(r.json.error.message), r.json.error.message);
});

done();
