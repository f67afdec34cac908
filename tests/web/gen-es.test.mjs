// gen-es.test.mjs — every text the library generates, in Spanish, without a
// browser: runs the tool ($CF) on many inputs (plan for every preset, audit
// of every shared case and of inputs that raise the other findings, fabrics
// and fit), collects each generated sentence of the JSON (why, reasons,
// message, action, assumes, notes, a scaling note's text), puts it through
// server/web/gen-es.js's gen(…, 'es') and fails naming each that still holds
// an English word (english.mjs). A new sentence from other work fails here
// until gen-es.js has its rule. Also: English stays as it is, and every
// format string of the library (gen-es-samples.txt) is translated.
import { readFileSync, readdirSync, existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { assert, check, done, CF, SHARED } from './lib.mjs';
import { ENGLISH, untranslated } from './english.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');
const ctx = vm.createContext({});
vm.runInContext(readFileSync(join(ROOT, 'server/web/gen-es.js'), 'utf8'), ctx, { filename: 'gen-es.js' });
const gen = (s, lang) => ctx.gen(s, lang);
const val = (s, lang) => ctx.val(s, lang);

/* The tool's JSON; null when it refused (exit 1 is a negative verdict and
 * still answers). */
function cf(args) {
  try {
    return JSON.parse(execFileSync(CF, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 }));
  } catch (e) {
    if (e.stdout) { try { return JSON.parse(e.stdout); } catch (e2) { /* refused */ } }
    return null;
  }
}

/* Every generated sentence of a JSON answer, each with where it was. */
const KEYS = new Set(['why', 'reasons', 'message', 'action', 'assumes', 'notes', 'note', 'bandwidth_not_judged_reason']);
function collect(j, where, out, key = '') {
  if (typeof j === 'string') { if (KEYS.has(key) || key === 'text') out.push([j, where]); return out; }
  if (Array.isArray(j)) { for (const x of j) collect(x, where, out, key); return out; }
  if (j && typeof j === 'object') {
    for (const [k, v] of Object.entries(j)) {
      if (k === 'text' && !(key === 'scaling_note')) continue;
      collect(v, where, out, KEYS.has(k) || k === 'text' ? k : k === 'scaling_note' ? 'scaling_note' : KEYS.has(key) ? key : '');
    }
  }
  return out;
}

/* The presets, as `fit --help` lists them. */
function presets() {
  let help = '';
  try { help = execFileSync(CF, ['fit', '--help'], { encoding: 'utf8' }); } catch (e) { help = e.stdout || ''; }
  const m = /presets:\s*([\s\S]*?)\n\s*--/.exec(help);
  return m ? m[1].split(/[,\s]+/).filter(Boolean) : [];
}

/* Inputs that raise the findings no shared case shows (as tests/cli/audit-*.t
 * build them): empty, junk, a cut last line, one rank per process, framework
 * failures, transports, the causes of GDR_DISABLED. */
const P = 'node01:1:2 [0] NCCL INFO', Q = 'node02:1:2 [0] NCCL INFO';
const caseLines = (prefix, re) => {
  const f = existsSync(join(SHARED, 'cases')) ? readdirSync(join(SHARED, 'cases')).find(x => x.startsWith(prefix)) : null;
  return f ? readFileSync(join(SHARED, 'cases', f), 'utf8').split('\n').filter(l => re.test(l)) : [];
};
const HDR = '#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error';
const SYNTH = [
  ['empty.txt', ''],
  ['junk.txt', 'hello\nthis is no log at all\n'],
  ['long-line.txt', `${P} Using network IB\n` + 'x'.repeat(70000) + '\n'],
  ['header-only.txt', `#                                out-of-place                       in-place\n${HDR}\n`],
  ['single-rank.txt', '# nThread 1 nGpus 1 minBytes 1310720000 maxBytes 1310720000 step: 1048576(bytes) warmup iters: 5 iters: 20 validation: 1\n' +
    '#\n# Using devices\n#   Rank  0 Pid   1320 on node01 device  0 [0x00] Tesla V100-SXM2-16GB\n' +
    '#   Rank  0 Pid   2066 on node02 device  0 [0x00] Tesla V100-SXM2-16GB\n#\n' + HDR + '\n' +
    '  1310720000     327680000     float     sum    50000   26.21    0.00  0e+00    50000   26.21    0.00  0e+00\n'],
  ['short-run.txt', '# nThread 1 nGpus 8 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 5 iters: 20 validation: 1\n#\n# Using devices\n' +
    [0, 1, 2, 3, 4, 5, 6, 7].map(i => `#   Rank  ${i} Pid   1320 on node0${1 + (i >> 2)} device  ${i & 3} [0x00] NVIDIA H100 80GB HBM3`).join('\n') + '\n#\n' + HDR + '\n' +
    '     1048576        262144     float     sum    100.0   10.49   18.35      0    100.0   10.49   18.35      0\n'],
  ['watchdog.txt', '[rank3]:[E ProcessGroupNCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE) ran for 600000 milliseconds before timing out.\n'],
  ['nccl-error.txt', 'torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL version 2.18.1\n'],
  ['ofi-tcp.txt', [`${P} NET/OFI Selected provider is tcp, fabric is 192.0.2.0/24 (found 1 nics)`, `${P} Using network Libfabric`,
    `${P} Channel 00/0 : 1[0] -> 0[0] [receive] via NET/Libfabric/0`, `${Q} Channel 00/0 : 0[0] -> 1[0] [receive] via NET/Libfabric/0`].join('\n') + '\n'],
  ['partial.txt', `${P} Channel 00/0 : 1[0] -> 0[0] [receive] via NET/IB/0/GDRDMA\n${Q} Channel 00/0 : 0[0] -> 1[0] [receive] via NET/IB/0\n`],
  ['nomod.txt', [...caseLines('07-', /GPU Direct RDMA Disabled/), '# lsmod | grep nvidia', 'nvidia_uvm           4911104  0',
    'nvidia              54571008  1 nvidia_uvm'].join('\n') + '\n'],
  ['dmabuf.txt', [...caseLines('24-', /DMA-BUF is available/), ...caseLines('07-', /GPU Direct RDMA Disabled/)
    .map(l => l.replace(/^node01:25668:27396/, 'node01:101855:101885'))].join('\n') + '\n'],
  ['bare-hca.txt', caseLines('07-', /GPU Direct RDMA Disabled/).join('\n') + '\n'],
  ['loc.txt', [...caseLines('24-', /NET\/IB : Using|Using network IB/),
    'node01:101855:101885 [0] NCCL INFO NCCL_NET_GDR_LEVEL set by environment to LOC',
    ...caseLines('24-', /via NET\/IB\/1\/GDRDMA$/).map(l => l.replace('/GDRDMA', ''))].join('\n') + '\n'],
  ['bare.txt', caseLines('24-', /via NET\/IB\/1\/GDRDMA$/).map(l => l.replace('/GDRDMA', '')).join('\n') + '\n'],
];

const texts = [];          // [text, where]
/* One answer's texts; `must`: a refusal fails the check (a wrong name in
 * the test would otherwise leave its sentences out unseen). */
const add = (j, where, must) => {
  assert.ok(j || !must, `${where}: the tool refused`);
  if (j) collect(j, where, texts);
};
const tmp = mkdtempSync(join(tmpdir(), 'cf-gen-es-'));

await check('the tool answers plan, fabrics, fit and audit in JSON on many inputs', async () => {
  const ps = presets();
  assert.ok(ps.length >= 8, `presets from fit --help: ${ps.join(' ')}`);
  for (const w of ps) {
    add(cf(['plan', '--workload', w, '--format', 'json']), `plan ${w}`);
    add(cf(['plan', '--workload', w, '--format', 'json', '--deadline', '2160']), `plan ${w} --deadline 2160`);
    add(cf(['fit', '--workload', w, '--gpu', 'H100-SXM', '--format', 'json']), `fit ${w}`);
  }
  add(cf(['plan', '--workload', 'llama3-70b', '--format', 'json', '--objective', 'time', '--budget', '1000']), 'plan --budget 1000');
  add(cf(['plan', '--workload', 'llama3-405b', '--format', 'json', '--deadline', '1']), 'plan --deadline 1');
  add(cf(['plan', '--workload', 'llama3-70b', '--format', 'json', '--currency', 'EUR']), 'plan --currency EUR');
  add(cf(['plan', '--workload', 'gpt3-175b', '--format', 'json', '--max-gpus', '64']), 'plan --max-gpus 64');
  for (const w of ['llama3-70b', 'deepseek-v3', 'cfd-stencil'])
    add(cf(['plan', '--workload', w, '--format', 'json', '--known-only', '--deadline', '720']), `plan ${w} --known-only`);
  add(cf(['plan', '--workload', 'llama3-405b', '--format', 'json', '--margin', '20', '--deadline', '500']), 'plan --margin 20');
  add(cf(['fit', '--workload', 'llama3-405b', '--gpu', 'A100-SXM-40', '--format', 'json']), 'fit llama3-405b A100', true);
  for (const [w, g, more] of [['llama3-70b', 'H100-SXM', ['--nodes', '64']], ['deepseek-v3', 'H200-SXM', ['--deadline', '2160']],
    ['resnet50-dp', 'A100-SXM-80', ['--nodes', '8']], ['cfd-stencil', 'H100-SXM', ['--nodes', '16']],
    ['mixtral-8x7b', 'L40S', ['--nodes', '4', '--nic-gbps', '200', '--non-blocking', 'no', '--rail-optimized', 'yes']]])
    add(cf(['fabrics', '--workload', w, '--gpu', g, ...more, '--format', 'json']), `fabrics ${w} ${g}`, true);
  const dirs = [join(SHARED, 'cases'), join(ROOT, 'tests/data/cases')].filter(existsSync);
  const files = dirs.flatMap(d => readdirSync(d).filter(f => f.endsWith('.txt')).map(f => join(d, f)));
  assert.ok(files.length >= 5, `audit cases in ${dirs.join(', ')}`);
  for (const f of files) add(cf(['audit', '--format', 'json', f]), `audit ${f}`);
  add(cf(['audit', '--format', 'json', ...files]), 'audit of every case at once');
  /* A node's probe (saved host trees, tests/data/probe), and its JSON audited
   * (the audit box takes it too). */
  const probes = join(ROOT, 'tests/data/probe');
  for (const d of existsSync(probes) ? readdirSync(probes) : []) {
    const j = cf(['probe', '--sysroot', join(probes, d), '--format', 'json']);
    add(j, `probe ${d}`);
    if (j) {
      const pj = join(tmp, `probe-${d}.json`);
      writeFileSync(pj, JSON.stringify(j));
      add(cf(['audit', '--format', 'json', pj]), `audit of probe ${d}`);
    }
  }
  /* Inputs that raise the findings no shared case shows. */
  for (const [name, body] of SYNTH) {
    const p = join(tmp, name);
    writeFileSync(p, body);
    add(cf(['audit', '--format', 'json', p]), `audit ${name}`);
  }
  assert.ok(texts.length > 200, `${texts.length} generated texts`);
  /* CF_GEN_ES_DUMP=FILE keeps the distinct texts, for writing rules. */
  if (process.env.CF_GEN_ES_DUMP) writeFileSync(process.env.CF_GEN_ES_DUMP, JSON.stringify([...new Set(texts.map(t => t[0]))], null, 1));
});

await check('Spanish: every generated text of the tool is translated (untranslated)', async () => {
  const seen = new Map();
  for (const [t, where] of texts) if (!seen.has(t)) seen.set(t, where);
  const bad = [];
  for (const [t, where] of seen) {
    const u = untranslated([gen(t, 'es')]);
    if (u.length) bad.push(`${where}: ${u[0]}`);
  }
  console.log(`# ${seen.size} distinct generated texts, ${bad.length} untranslated`);
  for (const b of bad.slice(0, 60)) console.log(`#   ${b}`);
  assert.equal(bad.length, 0, `${bad.length} untranslated, first: ${bad[0]}`);
});

await check('Spanish: every format string of the library (gen-es-samples.txt) is translated', async () => {
  const lines = readFileSync(join(HERE, 'gen-es-samples.txt'), 'utf8').split('\n').filter(l => l && !l.startsWith('#'));
  assert.ok(lines.length > 60, `${lines.length} samples`);
  const bad = lines.flatMap(l => untranslated([gen(l, 'es')]));
  for (const b of bad.slice(0, 60)) console.log(`#   ${b}`);
  assert.equal(bad.length, 0, `${bad.length} untranslated, first: ${bad[0]}`);
});

await check('the check can fail: the English texts hold English words', async () => {
  assert.ok(untranslated(texts.map(t => t[0])).length > texts.length / 2);
  assert.ok(ENGLISH.test('the network between nodes'));
  assert.ok(!ENGLISH.test('sin cuello de botella de comunicación: TP8 PP2v2 DP64, all-reduce, NODE/SYS'));
});

await check('English stays as the library wrote it; numbers, layouts and log text survive the Spanish', async () => {
  for (const [t] of texts) assert.equal(gen(t, 'en'), t);
  assert.equal(val('reserved', 'en'), 'reserved');
  assert.equal(val('reserved', 'es'), 'reservado');
  assert.equal(val('on-demand', 'es'), 'bajo demanda');
  for (const [t] of texts.slice(0, 4000)) {
    const es = gen(t, 'es');
    for (const tok of t.match(/\b(?:TP|PP|DP|EP|CP|ETP)\d+(?:v2)?\b|\d+(?:\.\d+)?%?|all-reduce|all-to-all|NCCL_\w+/g) || [])
      assert.ok(es.includes(tok) || es.includes(tok.replace('.', ',')), `"${tok}" lost in: ${t} → ${es}`);
  }
});

await check('Spanish sentences write numbers as the Spanish cells do (issue 23): decimal comma, US$', async () => {
  const es = t => gen(t, 'es');
  assert.equal(es('E 1.19, 2.11 USD/GPU-h, 12.5 %, ×1.6, 1.2x, 1234.50 USD'),
    'E 1,19, 2,11 US$/GPU-h, 12,5 %, ×1,6, 1,2x, 1234,50 US$');
  /* dotted runs, names, paths, instance types and quoted log text stay */
  assert.equal(es('10.0.0.1 2.19.6 v2.19 p4d.24xlarge common.cu:1 ./a/1.5 «busbw 1.5 GB/s»'),
    '10.0.0.1 2.19.6 v2.19 p4d.24xlarge common.cu:1 ./a/1.5 «busbw 1.5 GB/s»');
  /* every generated text with a decimal number outside quotes loses its point */
  let n = 0;
  for (const [t] of texts) {
    const m = /(^|[\s(])(\d+)\.(\d+)(?=[\s,;:)%]|$)/.exec(t.replace(/«[^»]*»/g, ''));
    if (!m) continue;
    n++;
    assert.ok(es(t).includes(`${m[2]},${m[3]}`), `"${m[2]}.${m[3]}" stays English in: ${es(t)}`);
  }
  assert.ok(n > 20, `${n} generated texts with a decimal number`);
});

rmSync(tmp, { recursive: true, force: true });
done();
