// The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in devDependencies) against
// `mcprely probe-client --listen`: the server scenarios each revision requires (`--requirements <revision>`, the set
// frozen at the revision's release, its not-scored scenarios run too), each at its revision's wire. Every check must
// pass, except the ones NOT_APPLICABLE names with the reason they cannot apply to a server whose only tools are the
// scenarios; the `wire-schema-valid` check (every message probe-client sent, validated against the revision's schema)
// must pass in every scenario, applicable or not. An entry of NOT_APPLICABLE that passes is stale and fails the run.
//
//   node scripts/conformance-check.mjs        builds dist/ if missing; prints one row per scenario and revision
//
// The suite needs Node 22 or later (fs.globSync): on an older node it runs on the Node 22 that
// scripts/node-releases.mjs installs from the npm registry into .node-versions/ (kept between runs).
// Exit 0: every applicable check passed; 1: a check failed (or a stale entry); 2: the suite could not run.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installRuntime } from './node-releases.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const SUITE = join(root, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const REVISIONS = ['2025-11-25', '2026-07-28'];

// Why a scenario (or one check of it) cannot apply to probe-client: it exercises a feature the server does not
// declare, or calls a diagnostic tool of the suite's reference server. Each is the suite's own verdict on such a
// server (a -32601 for an undeclared capability, "Not testable" for a missing tool, SKIPPED for an unadvertised one).
const FIXTURE_TOOL =
  "calls a tool of the suite's reference server (test_simple_text, test_image_content…); probe-client's tools are its scenarios";
const NO_RESOURCES = 'probe-client declares no resources capability: -32601 is the answer the spec asks for';
const NO_PROMPTS = 'probe-client declares no prompts capability: -32601 is the answer the spec asks for';
const ASKS_CLIENT = "needs a tool that asks the client for input (sampling, elicitation); no scenario needs the client's input";
const MRTR = "needs a tool that answers input_required (the reference server's test_input_required_result_*); no scenario does";
const TASKS = 'the io.modelcontextprotocol/tasks extension, which probe-client does not offer (an extension: never required)';

/** `revision`, `scenario`, and `check` (absent: every check of the scenario but wire-schema-valid), with `reason`. */
const NOT_APPLICABLE = [
  ...REVISIONS.flatMap((revision) => [
    { revision, scenario: 'completion-complete', check: 'completion-complete', reason: 'probe-client declares no completions capability' },
    ...[
      'tools-call-simple-text',
      'tools-call-image',
      'tools-call-audio',
      'tools-call-embedded-resource',
      'tools-call-mixed-content',
      'tools-call-error',
      'tools-call-with-progress',
    ].map((scenario) => ({ revision, scenario, check: scenario, reason: FIXTURE_TOOL })),
    {
      revision,
      scenario: 'json-schema-2020-12',
      check: 'json-schema-2020-12-tool-found',
      reason: "needs the suite's json_schema_2020_12_tool",
    },
    ...['resources-list', 'resources-read-text', 'resources-read-binary', 'resources-templates-read'].map((scenario) => ({
      revision,
      scenario,
      check: scenario,
      reason: NO_RESOURCES,
    })),
    ...['prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image'].map(
      (scenario) => ({ revision, scenario, check: scenario, reason: NO_PROMPTS }),
    ),
  ]),
  // 2025-11-25
  ...['resources-subscribe', 'resources-unsubscribe'].map((scenario) => ({
    revision: '2025-11-25',
    scenario,
    check: scenario,
    reason: NO_RESOURCES,
  })),
  ...[
    ['tools-call-sampling', 'tools-call-sampling'],
    ['tools-call-elicitation', 'tools-call-elicitation'],
    ['elicitation-sep1034-defaults', 'elicitation-sep1034-general'],
    ['elicitation-sep1330-enums', 'elicitation-sep1330-general'],
  ].map(([scenario, check]) => ({ revision: '2025-11-25', scenario, check, reason: ASKS_CLIENT })),
  {
    revision: '2025-11-25',
    scenario: 'tools-call-with-logging',
    check: 'tools-call-with-logging',
    reason: "calls the reference server's test_tool_with_logging; probe-client's own log message is checked by logging-set-level",
  },
  // 2026-07-28
  ...[
    'sep-2549-prompts-list-caching-hints',
    'sep-2549-resources-list-caching-hints',
    'sep-2549-resources-templates-list-caching-hints',
    'sep-2549-resources-read-caching-hints',
  ].map((check) => ({
    revision: '2026-07-28',
    scenario: 'caching',
    check,
    reason: 'no prompts or resources to cache (tools/list is checked)',
  })),
  ...['sep-2164-error-code', 'sep-2164-data-uri'].map((check) => ({
    revision: '2026-07-28',
    scenario: 'sep-2164-resource-not-found',
    check,
    reason: `${NO_RESOURCES} (the -32602 of a missing resource is for servers that have resources)`,
  })),
  ...['sep-2575-server-rejects-undeclared-capability', 'sep-2575-missing-capability-http-400'].map((check) => ({
    revision: '2026-07-28',
    scenario: 'server-stateless',
    check,
    reason: "needs the reference server's test_missing_capability: no scenario needs a client capability, so none can be missing",
  })),
  {
    revision: '2026-07-28',
    scenario: 'server-stateless',
    check: 'sep-2575-http-server-no-independent-requests-on-stream',
    reason: "needs the reference server's test_streaming_elicitation: probe-client never sends the client a request",
  },
  {
    revision: '2026-07-28',
    scenario: 'server-stateless',
    check: 'sep-2575-server-no-log-without-loglevel',
    reason: "needs the reference server's test_logging_tool (test/probe-client/wire-schema.test.ts checks probe-client's own rule)",
  },
  ...[
    'sep-2575-server-sends-subscription-ack',
    'sep-2575-server-tags-subscription-id',
    'sep-2575-server-honors-notification-filter',
    'sep-2575-server-sends-prompts-list-changed-on-subscription',
    'sep-2575-server-sends-tools-list-changed-on-subscription',
  ].map((check) => ({
    revision: '2026-07-28',
    scenario: 'server-stateless',
    check,
    reason: 'probe-client advertises no listChanged or subscribe: subscriptions/listen does not apply (the suite skips it)',
  })),
  ...[
    'basic-elicitation',
    'basic-sampling',
    'basic-list-roots',
    'request-state',
    'multiple-input-requests',
    'multi-round',
    'missing-input-response',
    'non-tool-request',
    'result-type',
    'tampered-state',
    'capability-check',
    'ignore-extra-params',
  ].map((name) => ({ revision: '2026-07-28', scenario: `input-required-result-${name}`, reason: MRTR })),
  ...[
    'lifecycle',
    'capability-negotiation',
    'wire-fields',
    'request-state-removal',
    'mrtr-input',
    'request-headers',
    'dispatch-and-envelope',
    'status-notifications',
    'required-task-error',
    'mrtr-composition',
  ].map((name) => ({ revision: '2026-07-28', scenario: `tasks-${name}`, reason: TASKS })),
  {
    revision: '2026-07-28',
    scenario: 'http-custom-header-server-validation',
    reason: 'needs a tool whose inputSchema marks parameters with x-mcp-header (Mcp-Param-* headers); the scenarios have none',
  },
];

function fail(message, code = 2) {
  console.error(`conformance-check: ${message}`);
  process.exit(code);
}

if (!existsSync(SUITE)) fail('@modelcontextprotocol/conformance is not installed: npm ci installs it (a devDependency)');
if (!existsSync(join(root, 'dist', 'mcprely.js'))) {
  const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) fail('the build (node scripts/build.mjs) failed');
}
const suiteNode =
  Number(process.versions.node.split('.')[0]) >= 22
    ? process.execPath
    : (await installRuntime('22', () => undefined).catch((error) => fail(`no Node 22 for the suite: ${error.message}`))).exe;

/** Starts probe-client on a free loopback port; its URL once it says it listens, and the process. */
function startProbeClient() {
  // --hold: a call nothing ends (the suite calls the first tool, never_answers) is answered after 2 s.
  const child = spawn(process.execPath, ['dist/mcprely.js', 'probe-client', '--listen', '127.0.0.1:0', '--hold', '2000'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let said = '';
  // Read to the end (the scenarios' outcomes as they are decided), kept only until the URL is known.
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve({ child, problem: `it did not say where it listens within 15 s:\n${said}` }), 15_000);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      if (said.length > 100_000) return;
      said += chunk;
      const url = /listening on (http:\/\/\S+)/.exec(said)?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    });
    child.once('exit', (code) => resolve({ child, problem: `it exited ${code} before listening:\n${said}` }));
  });
}

/**
 * Runs the suite's server scenarios a revision requires; each scenario's checks (from its results folder's checks.json).
 * Asynchronously: this process keeps reading probe-client's output meanwhile, so that a full pipe never stalls it.
 */
async function runSuite(url, revision, out) {
  const run = await new Promise((resolve) => {
    const child = spawn(suiteNode, [SUITE, 'server', '--url', url, '--requirements', revision, '-o', out], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000);
    child.once('error', (error) => resolve({ error, output }));
    child.once('close', () => {
      clearTimeout(timer);
      resolve({ output });
    });
  });
  if (run.error !== undefined || !existsSync(out))
    fail(`the suite did not run for ${revision}: ${run.error?.message ?? run.output.slice(-2000)}`);
  return readdirSync(out)
    .sort()
    .map((folder) => {
      const scenario = folder.replace(/^server-/, '').replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, '');
      const file = join(out, folder, 'checks.json');
      return { scenario, checks: existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined };
    });
}

const passed = (check) => check.status === 'SUCCESS' || check.status === 'INFO';
const started = await startProbeClient();
if (started.problem !== undefined) {
  started.child.kill();
  fail(`probe-client did not start: ${started.problem}`);
}
const results = join(mkdtempSync(join(tmpdir(), 'mcprely-conformance-')));
const problems = [];
const rows = [];
try {
  for (const revision of REVISIONS) {
    for (const { scenario, checks } of await runSuite(started.url, revision, join(results, revision))) {
      if (checks === undefined) {
        problems.push(`${revision} ${scenario}: no checks.json (the scenario did not finish)`);
        rows.push([scenario, revision, 'FAIL (no result)']);
        continue;
      }
      const excused = (check) =>
        check.id !== 'wire-schema-valid' &&
        NOT_APPLICABLE.find(
          (entry) => entry.revision === revision && entry.scenario === scenario && (entry.check === undefined || entry.check === check.id),
        );
      const failing = checks.filter((check) => !passed(check) && !excused(check));
      for (const check of failing)
        problems.push(`${revision} ${scenario}: ${check.id} ${check.status}: ${String(check.errorMessage ?? '').slice(0, 300)}`);
      const entries = NOT_APPLICABLE.filter((entry) => entry.revision === revision && entry.scenario === scenario);
      for (const entry of entries) {
        const covered = checks.filter(
          (check) => check.id !== 'wire-schema-valid' && (entry.check === undefined || check.id === entry.check),
        );
        if (covered.length > 0 && covered.every(passed))
          problems.push(`${revision} ${scenario}${entry.check ? `: ${entry.check}` : ''} passes: its NOT_APPLICABLE entry is stale`);
      }
      const excusedChecks = checks.filter((check) => !passed(check) && excused(check));
      const reasons = [...new Set(excusedChecks.map((check) => excused(check).reason))].join('; ');
      const schema = checks.some((check) => check.id === 'wire-schema-valid') ? '; wire-schema-valid passes' : '';
      const whole =
        entries.some((entry) => entry.check === undefined) ||
        excusedChecks.length === checks.filter((check) => check.id !== 'wire-schema-valid').length;
      const verdict =
        failing.length > 0
          ? `FAIL (${failing.map((check) => check.id).join(', ')})`
          : excusedChecks.length === 0
            ? `pass (${checks.length} checks)`
            : whole
              ? `not applicable: ${reasons}${schema}`
              : `pass (${checks.filter(passed).length} of ${checks.length} checks; the others not applicable: ${reasons})`;
      rows.push([scenario, revision, verdict]);
    }
  }
} finally {
  started.child.kill('SIGTERM');
}
for (const entry of NOT_APPLICABLE)
  if (!rows.some(([scenario, revision]) => scenario === entry.scenario && revision === entry.revision))
    problems.push(`${entry.revision} ${entry.scenario} did not run: its NOT_APPLICABLE entry is stale`);

console.log(`@modelcontextprotocol/conformance against mcprely probe-client (results, kept when a check fails: ${results})`);
for (const [scenario, revision, verdict] of rows) console.log(`  ${revision}  ${scenario.padEnd(48)} ${verdict}`);
if (problems.length > 0) {
  console.error(`\nconformance-check: ${problems.length} problem(s):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
rmSync(results, { recursive: true, force: true });
console.log(`conformance-check: every applicable check passed on ${REVISIONS.join(' and ')}`);
