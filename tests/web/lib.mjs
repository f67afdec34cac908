// lib.mjs — the small harness the web tests share: numbered checks that
// print PASS/FAIL/SKIP lines and a final "RESULT passed failed skipped" line
// that run.sh adds up. A check is an async function that throws on failure.
import assert from 'node:assert/strict';
import net from 'node:net';

export { assert };
export const BASE = process.env.CF_BASE;           // http://127.0.0.1:PORT
export const CF = process.env.CF;                  // the clusterfit binary
export const SHARED = process.env.SHARED;
const counts = { pass: 0, fail: 0, skip: 0 };

export class Skip extends Error {}

export async function check(name, fn) {
  try {
    await fn();
    counts.pass++;
    console.log(`PASS ${name}`);
  } catch (e) {
    if (e instanceof Skip) {
      // Every module of the library is in the build: a check that finds its
      // feature missing (or no data to look at) has failed, it is not skipped.
      counts.fail++;
      console.log(`FAIL ${name}: would have skipped: ${e.message}`);
    } else {
      counts.fail++;
      console.log(`FAIL ${name}: ${e && e.stack ? e.stack.split('\n').slice(0, 3).join(' | ') : e}`);
    }
  }
}

export function done() {
  console.log(`RESULT ${counts.pass} ${counts.fail} ${counts.skip}`);
  process.exitCode = counts.fail ? 1 : 0;
}

// GET/POST through fetch; returns {status, headers, json, text}.
export async function http(path, opts = {}) {
  const res = await fetch(BASE + path, opts);
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch (e) { json = null; }
  return { status: res.status, headers: res.headers, json, text };
}

// Sends raw bytes on a fresh connection and returns what comes back (until
// the server closes, or `ms` passes). For requests fetch cannot make.
export function raw(bytes, ms = 3000) {
  const url = new URL(BASE);
  return new Promise(resolve => {
    const chunks = [];
    const s = net.connect(+url.port, url.hostname);
    const finish = why => { s.destroy(); resolve({ text: Buffer.concat(chunks).toString('latin1'), why }); };
    const timer = setTimeout(() => finish('timeout'), ms);
    s.on('connect', () => s.write(bytes));
    s.on('data', d => chunks.push(d));
    s.on('error', () => { clearTimeout(timer); finish('error'); });
    s.on('close', () => { clearTimeout(timer); finish('closed'); });
  });
}

export function statusOf(rawText) {
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(rawText);
  return m ? +m[1] : 0;
}

// The error body contract of DESIGN §6.
export function expectError(r, status, code) {
  assert.equal(r.status, status, `HTTP status (body ${r.text.slice(0, 200)})`);
  assert.ok(r.json && r.json.error, 'error object');
  assert.equal(r.json.error.code, code);
  assert.equal(typeof r.json.error.message, 'string');
  assert.ok(r.json.error.message.length > 0);
}
