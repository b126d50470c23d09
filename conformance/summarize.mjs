// summarize.mjs turns the conformance suites' results (written by run.sh
// and run-client.sh into bin/results and bin/client-results) into
// RESULTS.md and compares them with baseline.txt (baseline-client.txt).
//
// Usage: node summarize.mjs [--mode server|client] --results DIR --baseline FILE
//                           --out FILE [--node VERSION] [--served TEXT] [--update-baseline] SUITE...
//
// For each SUITE, DIR holds SUITE.list (the suite's `list --server` or
// `list --client` output: the scenarios it was asked to run), the checks
// (server: SUITE/server-<scenario>-<time>/checks.json; client:
// SUITE/<scenario>-<time>/checks.json, auth/* one directory down),
// SUITE.version, SUITE.command, SUITE.log and (server) SUITE.server.exit.
// RESULTS.md has a server part and a client part: each mode rewrites its
// own and keeps the other's. --served says what served the server suites
// (run.sh's gateway mode: the gateway in front of cmd/everything).
//
// A scenario PASSes when its checks include a SUCCESS and no FAILURE; it
// FAILs on any FAILURE or when it left no checks.json; with neither it is
// NONE (every check skipped or informational). Warnings do not fail a
// scenario but are counted. Extensions (tasks-*, sep-2640-*) are marked
// as such and otherwise treated like every other scenario: the baseline
// requires those it lists (the tasks scenarios, since the server
// implements that extension).
//
// Exit status 1 when a baseline scenario does not pass or a server did not
// exit 0 after SIGTERM; newly passing scenarios are printed, not fatal.
import fs from 'node:fs';
import path from 'node:path';

const argv = process.argv.slice(2);
const opt = { suites: [], mode: 'server' };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--update-baseline') opt.update = true;
  else if (a.startsWith('--')) opt[a.slice(2)] = argv[++i];
  else opt.suites.push(a);
}
for (const k of ['results', 'baseline', 'out']) {
  if (!opt[k]) {
    console.error(`summarize: --${k} is required`);
    process.exit(2);
  }
}

if (opt.mode !== 'server' && opt.mode !== 'client') {
  console.error(`summarize: --mode is server or client, not ${opt.mode}`);
  process.exit(2);
}
const client = opt.mode === 'client';

const isExtension = (name) => /^(tasks-|sep-2640-)/.test(name);

// listed reads the scenario names of a `list --server` output: lines
// "  - name [versions]" in the server section, and in a --requirements
// listing the unscored ones marked "[server]" (pending, extension).
function listed(file) {
  const names = [];
  const notes = new Map();
  let section = '';
  let group = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (/^Server scenarios/.test(line)) section = 'server';
    else if (/^Client scenarios/.test(line)) section = 'client';
    else if (/^Run and reported, but never scored/.test(line)) section = 'unscored';
    const g = line.match(/^\s{2}([a-z-]+) \(\d+\):/);
    if (section === 'unscored' && g) group = g[1];
    const m = line.match(/^\s+- ([A-Za-z0-9_./-]+)(?: \[([^\]]*)\])?\s*$/);
    if (!m) continue;
    if (section === opt.mode) names.push(m[1]);
    else if (section === 'unscored' && m[2] === opt.mode) {
      names.push(m[1]);
      notes.set(m[1], group);
    }
  }
  return { names, notes };
}

// checksOf finds the checks.json of each scenario in a suite's output dir:
// server-<scenario>-<time>/ of a server suite, <scenario>-<time>/ of a
// client suite (a scenario named auth/x is in auth/x-<time>/).
function checksOf(dir) {
  const out = new Map();
  if (!fs.existsSync(dir)) return out;
  const prefix = client ? '' : 'server-';
  const dirs = fs.readdirSync(dir, { recursive: true }).map(String).sort();
  for (const d of dirs) {
    const m = d.split(path.sep).join('/').match(/^(.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d+Z$/);
    const f = path.join(dir, d, 'checks.json');
    if (!m || !m[1].startsWith(prefix) || !fs.existsSync(f)) continue;
    m[1] = m[1].slice(prefix.length);
    try {
      out.set(m[1], JSON.parse(fs.readFileSync(f, 'utf8')));
    } catch (e) {
      out.set(m[1], [{ id: 'checks.json', status: 'FAILURE', errorMessage: `unreadable: ${e.message}` }]);
    }
  }
  return out;
}

const read = (f, dflt = '') => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim() : dflt);
const clip = (s, n) => {
  s = String(s ?? '').replace(/\s+/g, ' ').trim();
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
};
const cell = (s) => s.replace(/\|/g, '\\|');

const rows = [];
const serverExits = [];
for (const suite of opt.suites) {
  const { names, notes } = listed(path.join(opt.results, `${suite}.list`));
  const checks = checksOf(path.join(opt.results, suite));
  const all = [...names, ...[...checks.keys()].filter((n) => !names.includes(n))];
  for (const name of all) {
    const cs = checks.get(name);
    const count = { SUCCESS: 0, FAILURE: 0, WARNING: 0, SKIPPED: 0, INFO: 0 };
    let result = 'FAIL';
    let failures = [];
    if (!cs) {
      failures = [{ id: '-', errorMessage: 'no result: the scenario left no checks.json (the suite crashed or timed out)' }];
    } else {
      for (const c of cs) count[c.status] = (count[c.status] ?? 0) + 1;
      failures = cs.filter((c) => c.status === 'FAILURE');
      result = count.FAILURE > 0 ? 'FAIL' : count.SUCCESS > 0 ? 'PASS' : 'NONE';
    }
    let note = notes.get(name) ?? '';
    if (isExtension(name)) note = 'extension';
    if (client && name.startsWith('auth/')) note = 'auth';
    const warnings = (cs ?? []).filter((c) => c.status === 'WARNING');
    rows.push({ suite, name, result, count, failures, warnings, note });
  }
  if (!client) serverExits.push({ suite, exit: read(path.join(opt.results, `${suite}.server.exit`), 'unknown') });
}

// The baseline: "SUITE SCENARIO" per line, # comments.
const baseline = [];
if (fs.existsSync(opt.baseline)) {
  for (const raw of fs.readFileSync(opt.baseline, 'utf8').split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) continue;
    const [suite, name] = line.split(/\s+/);
    baseline.push({ suite, name });
  }
}
const required = baseline.filter((b) => opt.suites.includes(b.suite));
const key = (s, n) => `${s} ${n}`;
const inBaseline = new Set(baseline.map((b) => key(b.suite, b.name)));
const byKey = new Map(rows.map((r) => [key(r.suite, r.name), r]));

let status = 0;
const problems = [];
for (const b of baseline) {
  if (!opt.suites.includes(b.suite)) continue;
  const r = byKey.get(key(b.suite, b.name));
  if (!r) {
    problems.push(`baseline scenario not run: ${b.suite} ${b.name}`);
  } else if (r.result !== 'PASS') {
    problems.push(`baseline scenario ${r.result === 'FAIL' ? 'fails' : 'no longer passes'}: ${b.suite} ${b.name}` +
      (r.failures[0] ? ` (${clip(r.failures[0].id + ': ' + (r.failures[0].errorMessage ?? ''), 200)})` : ''));
  }
}
for (const e of serverExits) {
  if (e.exit !== '0') problems.push(`the server of suite ${e.suite} did not exit 0 after SIGTERM (status ${e.exit})`);
}
// Every scenario that passes may enter the baseline; a client's auth/*
// scenarios are among them since the client signs in (client/signin).
const baselined = (r) => r.result === 'PASS';
const newly = rows.filter((r) => baselined(r) && !inBaseline.has(key(r.suite, r.name)));

// RESULTS.md: the server part, then the client part from clientMarker on.
const clientMarker = '<!-- The client part, written by conformance/run-client.sh. -->';
const md = [];
if (client) {
  md.push(clientMarker);
  md.push('');
  md.push('## Client conformance');
  md.push('');
  md.push('Written by `conformance/run-client.sh` (see [README.md](README.md)); do not edit by hand.');
  md.push(`cmd/everything-client run by each suite once per scenario against the suite's own server${opt.node ? `, suites run on Node ${opt.node}` : ''}.`);
  md.push('');
  md.push('| suite | package | command | scenarios | pass | fail | none |');
  md.push('|---|---|---|---|---|---|---|');
} else {
  md.push('# Conformance results');
  md.push('');
  md.push('Written by `conformance/run.sh` (see [README.md](README.md)); do not edit by hand.');
  if (opt.served) {
    md.push(`${opt.served}${opt.node ? `, suites run on Node ${opt.node}` : ''}.`);
  } else {
    md.push(`cmd/everything served over Streamable HTTP (\`-http 127.0.0.1:0\`), one fresh server per suite${opt.node ? `, suites run on Node ${opt.node}` : ''}.`);
    md.push('The client part, [Client conformance](#client-conformance), follows.');
  }
  md.push('');
  md.push('| suite | package | command | scenarios | pass | fail | none | server exit |');
  md.push('|---|---|---|---|---|---|---|---|');
}
for (const suite of opt.suites) {
  const rs = rows.filter((r) => r.suite === suite);
  const n = (res) => rs.filter((r) => r.result === res).length;
  const exit = client ? '' : ` ${serverExits.find((e) => e.suite === suite).exit} |`;
  md.push(`| ${suite} | @modelcontextprotocol/conformance@${read(path.join(opt.results, `${suite}.version`), '?')} | \`${read(path.join(opt.results, `${suite}.command`))}\` | ${rs.length} | ${n('PASS')} | ${n('FAIL')} | ${n('NONE')} |${exit}`);
}
md.push('');
md.push('Result: PASS = at least one check succeeded and none failed; FAIL = a check failed or the scenario left no result; NONE = every check was skipped or informational.');
md.push(`Checks: succeeded / failed / warnings / skipped. Baseline: ✓ the scenario must pass (\`${path.basename(opt.baseline)}\`).`);
if (client) {
  md.push('`auth/*` scenarios (OAuth, signed in with `client/signin`, extensions included) are marked `auth` and in the baseline; the `sep-2640-*` extension (skills) is marked and not in it yet.');
} else {
  md.push('Extensions (`tasks-*`, `sep-2640-*`) are marked; the baseline requires the ones it lists, extension or not; "pending" scenarios are not scored by the suite itself.');
}
md.push('');
md.push('| scenario | suite | result | checks | baseline | note | first failure |');
md.push('|---|---|---|---|---|---|---|');
for (const r of rows) {
  const c = `${r.count.SUCCESS}/${r.count.FAILURE}/${r.count.WARNING}/${r.count.SKIPPED}`;
  const f = r.failures[0] ? clip(`${r.failures[0].id}: ${r.failures[0].errorMessage ?? ''}`, 160) : '';
  md.push(`| ${r.name} | ${r.suite} | ${r.result} | ${c} | ${inBaseline.has(key(r.suite, r.name)) ? '✓' : ''} | ${r.note} | ${cell(f)} |`);
}
const failing = rows.filter((r) => r.failures.length > 0 || r.warnings.length > 0);
if (failing.length > 0) {
  md.push('');
  md.push(client ? '### Failed checks and warnings (client)' : '## Failed checks and warnings');
  for (const r of failing) {
    md.push('');
    md.push(`${client ? '####' : '###'} ${r.suite} ${r.name}${r.note ? ` (${r.note})` : ''}`);
    md.push('');
    for (const c of r.failures) md.push(`- FAILURE \`${c.id}\`: ${clip(c.errorMessage, 600)}`);
    for (const c of r.warnings) md.push(`- WARNING \`${c.id}\`: ${clip(c.errorMessage, 600)}`);
  }
}
const before = fs.existsSync(opt.out) ? fs.readFileSync(opt.out, 'utf8') : '';
const at = before.indexOf(clientMarker);
const serverPart = at < 0 ? before : before.slice(0, at);
const clientPart = at < 0 ? '' : before.slice(at);
const written = md.join('\n') + '\n';
fs.writeFileSync(opt.out, client ? (serverPart ? serverPart.replace(/\n*$/, '\n\n') : '') + written : written + (clientPart ? '\n' + clientPart : ''));

// Console summary.
console.log('');
console.log('== results (details in RESULTS.md)');
for (const r of rows) {
  const mark = inBaseline.has(key(r.suite, r.name)) ? '*' : ' ';
  console.log(`${r.result.padEnd(4)} ${mark} ${r.suite.padEnd(10)} ${r.name}${r.note ? ` (${r.note})` : ''}`);
}
console.log('(* in the baseline)');
if (!opt.update) for (const r of newly) console.log(`newly passing: ${r.suite} ${r.name} (add it to the baseline)`);

if (opt.update) {
  const passing = rows.filter(baselined);
  const lines = client
    ? [
        '# The client conformance scenarios that must pass: "SUITE SCENARIO" per',
        '# line. conformance/run-client.sh fails when one of them does not pass.',
        '# Rewrite with conformance/run-client.sh -update-baseline.',
      ]
    : [
        '# The conformance scenarios that must pass: "SUITE SCENARIO" per line.',
        '# conformance/run.sh fails when one of them does not pass, extensions',
        '# (tasks-*, sep-2640-*) included. Rewrite with',
        '# conformance/run.sh -update-baseline.',
      ];
  for (const suite of opt.suites) {
    lines.push('');
    for (const r of passing.filter((r) => r.suite === suite)) lines.push(`${r.suite} ${r.name}`);
  }
  fs.writeFileSync(opt.baseline, lines.join('\n') + '\n');
  console.log(`baseline rewritten: ${passing.length} scenarios`);
}

for (const p of problems) console.log(`FAIL: ${p}`);
if (problems.length > 0) status = 1;
const pass = rows.filter((r) => r.result === 'PASS').length;
const fail = rows.filter((r) => r.result === 'FAIL').length;
console.log('');
console.log(`conformance${client ? ' (client)' : ''}: ${pass} passed, ${fail} failed, ${rows.length - pass - fail} without checks; ` +
  `baseline ${required.length - problems.filter((p) => p.startsWith('baseline')).length}/${required.length} passing`);
process.exit(opt.update ? (serverExits.every((e) => e.exit === '0') ? 0 : 1) : status);
