import { factsOf } from '../spec/revision-facts.js';
import { MOST_DEPLOYED_REVISION, SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import type { Transport } from '../protocol/transports.js';
import { DECIDE, TEMPLATE_PLACEHOLDERS } from '../manifest/placeholders.js';
import { CommentedDocument } from './commented-document.js';

export interface TemplateInput {
  readonly specVersion: SpecVersion;
  readonly transports: readonly Transport[];
  /** The `$schema` path in the editor comment, relative to the file written (default: SCHEMA_PATH). */
  readonly schemaPath?: string;
}

/** The manifest schema in the installed package, from the folder that holds node_modules. */
export const SCHEMA_PATH = './node_modules/mcprely/schemas/manifest.schema.json';

export { DECIDE } from '../manifest/placeholders.js';
import { SSE_RESPONSE_HEADERS } from '../protocol/http-headers.js';
import { METHODS } from '../protocol/methods.js';

/**
 * A starting manifest without a server: every field a visible choice with a comment that says what it decides,
 * the safe value chosen where one exists (the revision's own cancellation signal, bounded buffers, no
 * automatic retry, no Last-Event-ID, …), and the decisions only its author can make — the tool's name, its
 * side effect, its timeouts — marked DECIDE and left for mcprely lint to report. Written with the `yaml`
 * package's document API, which carries the comments.
 */
export function templateManifest(input: TemplateInput): string {
  const facts = factsOf(input.specVersion);
  const http = input.transports.includes('streamable-http');
  const manifest = {
    mcprely: 1,
    specVersion: input.specVersion,
    server: {
      name: TEMPLATE_PLACEHOLDERS.serverName,
      transports: [...input.transports],
      ...(http
        ? {
            http: {
              endpoint: '/mcp',
              sseHeaders: { ...SSE_RESPONSE_HEADERS },
              keepaliveMs: 15000,
              proxyIdleTimeoutMs: 60000,
              responseMode: 'sse',
            },
          }
        : {}),
    },
    defaults: {
      timeouts: {
        idleMs: 30000,
        maxMs: 120000,
        resetIdleOnProgress: true,
        resetMaxOnProgress: false,
        keepaliveCountsAsActivity: false,
        cancelOnTimeout: true,
        lateResponse: 'ignore',
      },
      progress: { emits: false },
      cancellation: {
        stopsWork: 'immediately',
        suppressResponseAfterCancel: true,
        handler: 'cooperative',
        ...(http
          ? { httpSignal: facts['http-cancel-signal'].value, disconnectIsCancellation: facts['disconnect-is-cancellation'].value }
          : {}),
        invalidOrLate: 'ignore',
      },
      retry: { automatic: 'never' },
      flowControl: { progressBuffer: { capacity: 64, overflow: 'coalesce-then-drop-oldest' }, preserveFinal: true, refetchOnDrop: true },
      recovery: {
        reconnect: { newRequestId: true, sendLastEventId: false, backoff: { baseMs: 250, capMs: 8000, jitter: 'full' } },
        replayUnsafeMutations: false,
      },
      task: { used: false },
    },
    operations: [
      { name: TEMPLATE_PLACEHOLDERS.toolName, method: METHODS.toolsCall, description: TEMPLATE_PLACEHOLDERS.description, timeouts: {} },
    ],
  };
  const doc = new CommentedDocument(manifest, [
    `yaml-language-server: $schema=${input.schemaPath ?? SCHEMA_PATH}`,
    `Written by mcprely init --template (MCP ${input.specVersion}, ${input.transports.join(' and ')}).`,
    'Every field is a decision. The values here are the safe ones; change a value only for a reason.',
    `The decisions only you can make are marked ${DECIDE}: mcprely lint reports each until it is made.`,
  ]);
  const comment = doc.comment.bind(doc);
  // Small mappings and lists read best on one line.
  for (const path of [
    ['server', 'transports'],
    ['server', 'http', 'sseHeaders'],
    ['defaults', 'timeouts'],
    ['defaults', 'progress'],
    ['defaults', 'retry'],
    ['defaults', 'flowControl', 'progressBuffer'],
    ['defaults', 'recovery', 'reconnect'],
    ['defaults', 'task'],
    ['operations', 0, 'timeouts'],
  ] as const)
    doc.flow(path);
  const latest = SPEC_VERSIONS[SPEC_VERSIONS.length - 1]!;
  comment(['specVersion'], `the revision the server speaks: ${latest} (current) or ${MOST_DEPLOYED_REVISION} (the most deployed; SDK 1.x)`);
  comment(['server', 'name'], `${DECIDE}: the server's name`);
  comment(['server', 'transports'], 'stdio, streamable-http, or both');
  if (http) {
    comment(['server', 'http', 'sseHeaders'], 'what every SSE response carries: proxies deliver events at once');
    comment(['server', 'http', 'keepaliveMs'], 'an SSE comment this often on a quiet stream, below the proxy idle timeout');
    comment(['server', 'http', 'proxyIdleTimeoutMs'], "your reverse proxy's or load balancer's idle timeout");
    comment(['server', 'http', 'responseMode'], 'sse carries progress and sees cancellation; json does neither');
  }
  comment(['defaults'], 'merged into every operation, field by field; an operation overrides what differs', true);
  comment(['defaults', 'timeouts'], 'the caller: an idle clock progress resets, a maximum it never does, cancel on expiry');
  comment(['defaults', 'progress'], 'set emits: true (with minIntervalMs) on operations that report progress');
  comment(['defaults', 'cancellation'], 'stop at once, answer nothing, ignore late or unknown cancellations', true);
  comment(['defaults', 'retry'], 'no automatic retry until an operation is safe to repeat (reads, or keyed mutations)');
  comment(['defaults', 'flowControl'], 'a bounded event buffer that coalesces progress and never drops the final response', true);
  comment(['defaults', 'recovery'], 'after a drop: a new request id, no Last-Event-ID, jittered backoff', true);
  comment(['defaults', 'task'], 'task.used: true for work that outlives a request (minutes to hours)');
  comment(['operations'], 'one entry per tool, resource, prompt or stream the server offers', true);
  comment(['operations', 0, 'name'], `${DECIDE}: the tool's name as tools/list gives it`);
  comment(['operations', 0, 'description'], `${DECIDE}: say what it does`);
  comment(['operations', 0, 'timeouts'], "its own idleMs and maxMs, the longest silence and the longest run (until then, the defaults')");
  comment(
    ['operations', 0],
    `${DECIDE}: its side effect, as a contract: sideEffect: none | idempotent | mutation (a mutation also needs an idempotency key)`,
    true,
  );
  // Values other YAML readers (YAML 1.1) would take for a date or a boolean are quoted.
  doc.quote(['specVersion']);
  if (http) doc.quote(['server', 'http', 'sseHeaders', 'X-Accel-Buffering']);
  return doc.toString();
}
