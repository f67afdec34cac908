// fuzz.mjs — malformed requests against the running server, loopback only,
// bounded in count and time: random bytes, broken request lines and headers,
// bad percent-escapes, junk parameters, invalid JSON and multipart bodies,
// lying Content-Length, bad chunked encoding, and slow clients holding
// connections open. Passes when every answer is a 2xx/4xx (or 501/503) or a
// closed connection, the server still answers /healthz, and its resident
// memory after the run is within a few MiB of what it was after a warm-up.
// Seeded, so a failure can be replayed: CF_FUZZ_SEED, CF_FUZZ_COUNT.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { assert, check, done, http, raw, statusOf } from './lib.mjs';

const PID = +process.env.CF_PID;
const COUNT = +(process.env.CF_FUZZ_COUNT || 2000);
const SECONDS = +(process.env.CF_FUZZ_SECONDS || 25);
let seed = +(process.env.CF_FUZZ_SEED || 20261130);
const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 4294967296; };
const pick = a => a[Math.floor(rnd() * a.length)];
const int = n => Math.floor(rnd() * n);
const rss = () => +(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${PID}/status`, 'utf8')) || [0, 0])[1];
const bytes = n => Buffer.from(Array.from({ length: n }, () => int(256)));

const PATHS = ['/', '/api/offerings', '/api/offerings/aws-p5-48xlarge', '/api/plan', '/api/audit',
  '/api/predict/collective', '/healthz', '/api/vocab', '/app.js', '/api/offerings/%2e%2e%2f%2e%2e%2fetc%2fpasswd'];
const KEYS = ['multinode', 'network', 'gdr', 'rdma', 'gpu', 'min_gbps', 'orchestration', 'provisioning', 'storage',
  'max_price', 'currency', 'provider', 'sort', 'collective', 'bytes', 'nodes', 'offering', 'nic_gbps', 'x', '', '%00', 'a%zz'];
const VALS = ['yes', 'no', 'ib', 'roce', '1e309', 'NaN', '-1', '0x10', '%00', '%ff%fe', 'slurm,,', ';', '8G', '99999999999999999999',
  'H100-SXM', '\u00e9', 'a'.repeat(300), '', 'inf', '1,2', '%', '+', 'price', 'max_cluster'];
const JUNK_JSON = ['{', '}', '[', 'null', '"x"', '{"workload":', '{"workload":1}', '{"workload":"llama3-70b","top":-1}',
  '{"workload":"llama3-70b","filters":[]}', '{"workload":"llama3-70b","filters":{"network":["ib",1]}}',
  '{"workload":{"kind":"llm"}}', '{"workload":"../../etc/passwd"}', '{"a":1,"a":2}', '\u0000', '[' .repeat(5000),
  '{"workload":"llama3-70b","deadline_h":1e400}', '{"workload":"llama3-70b","objective":"fastest"}'];

function query() {
  const n = int(5);
  const parts = [];
  for (let i = 0; i < n; i++) parts.push(pick(KEYS) + (rnd() < 0.9 ? '=' + encodeURI(pick(VALS)) : ''));
  return parts.join(pick(['&', '&', '&&', ';']));
}

// One malformed request as raw bytes.
function request() {
  const kind = int(12);
  const path = pick(PATHS);
  switch (kind) {
  case 0: return bytes(1 + int(2000));
  case 1: return `${pick(['GET', 'POST', 'BREW', 'G\0ET', '', 'get', 'CONNECT', 'OPTIONS', 'TRACE'])} ${path}?${query()} HTTP/1.${int(3)}\r\nHost: 127.0.0.1\r\n\r\n`;
  case 2: return `GET ${path}?${query()}\r\n\r\n`;
  case 3: return `GET /${'a'.repeat(int(40000))} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
  case 4: return `GET ${path} HTTP/1.1\r\n` + Array.from({ length: int(3000) }, (_, i) => `X-${i}: ${'v'.repeat(int(50))}\r\n`).join('') + '\r\n';
  case 5: return `GET ${path} HTTP/1.1\r\nHost x\r\nno colon here\r\n: empty\r\n\r\n`;
  case 6: { const b = pick(JUNK_JSON); return `POST /api/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`; }
  case 7: { const b = bytes(int(5000)); return Buffer.concat([Buffer.from(`POST /api/audit?${rnd() < 0.3 ? query() : ''} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${b.length}\r\n\r\n`), b]); }
  case 8: return `POST /api/audit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${pick(['', 'x', '"', 'a'.repeat(200)])}\r\nContent-Length: 60\r\n\r\n--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nNCCL\r\n--y--`;
  case 9: return `POST /api/audit HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${100 + int(1000)}\r\n\r\nshort body`;
  case 10: return `POST /api/plan HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n${pick(['zz', 'ffffffffffffffff', '-1', '5', '3\r\nabc\r\n0'])}\r\nabc\r\n`;
  default: return `GET ${path}?${query()} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${pick(['-5', 'abc', '99999999999999999999999', '1 1'])}\r\n\r\n`;
  }
}

// Slow clients: connections that send half a request line and then wait.
function slowClients(n) {
  const url = new URL(process.env.CF_BASE);
  return Array.from({ length: n }, () => {
    const s = net.connect(+url.port, url.hostname);
    s.on('error', () => {});
    s.on('connect', () => s.write('GET /api/offerings?multinode=y'));
    return s;
  });
}

const statuses = {};
let sent = 0, bad5xx = 0;
async function batch(n, deadline) {
  const workers = Array.from({ length: 16 }, async () => {
    while (sent < n && Date.now() < deadline) {
      sent++;
      const r = await raw(request(), 400);
      const st = statusOf(r.text);
      const key = st ? String(st) : `no-status(${r.why})`;
      statuses[key] = (statuses[key] || 0) + 1;
      if (st >= 500 && st !== 501 && st !== 503) {
        bad5xx++;
        if (bad5xx <= 3) console.log(`  5xx: ${r.text.slice(0, 200).replace(/\r\n/g, ' | ')}`);
      }
    }
  });
  await Promise.all(workers);
}

let before = 0, after = 0;
await check(`malformed requests (${COUNT} at most, ${SECONDS} s at most, loopback): no crash, no 500`, async () => {
  const end = Date.now() + SECONDS * 1000;
  await batch(Math.min(300, COUNT), end);          // warm-up: caches, thread stacks, allocator arenas
  before = rss();
  const slow = slowClients(20);
  await batch(COUNT, end);
  const h = await http('/healthz');
  assert.equal(h.status, 200, 'the server answers while 20 slow clients hold connections');
  slow.forEach(s => s.destroy());
  await new Promise(r => setTimeout(r, 500));
  after = rss();
  console.log(`fuzz: ${sent} requests; statuses ${JSON.stringify(statuses)}; RSS before ${before} KiB, after ${after} KiB`);
  assert.equal(bad5xx, 0, 'no 500 internal error');
});

await check('the server is alive and memory is flat (RSS growth < 8 MiB after warm-up)', async () => {
  const h = await http('/healthz');
  assert.equal(h.status, 200);
  assert.ok(before > 0 && after > 0, 'RSS read from /proc');
  assert.ok(after - before < 8 * 1024, `RSS grew by ${after - before} KiB`);
});

done();
