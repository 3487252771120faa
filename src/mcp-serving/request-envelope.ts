import { fact, revisionsWhere } from '../spec/revision-facts.js';
import { isSpecVersion, type SpecVersion } from '../spec/revisions.js';
import { decodeHeaderValue } from '../protocol/header-value.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { HTTP_HEADERS, MCP_NAME_SOURCE } from '../protocol/http-headers.js';
import { isLogLevel, type LogLevel } from '../protocol/log-levels.js';
import { META_KEYS } from '../protocol/meta-keys.js';
import { asRecord } from '../protocol/message-guards.js';
import { METHODS } from '../protocol/methods.js';

/**
 * Which era a request belongs to, and whether a stateless revision's request is well formed: its per-request envelope
 * (`params._meta`), its version, and over Streamable HTTP its MCP headers against the body. Pure: the HTTP server
 * passes the headers in and maps a refusal to its status.
 */

/** A request's MCP headers as received over Streamable HTTP (absent over stdio). */
export interface McpHeaders {
  readonly protocolVersion?: string;
  readonly method?: string;
  readonly name?: string;
}

/** Why a request is refused before its method is served; each has its HTTP status in the HTTP server. */
export type Refusal = 'malformed-envelope' | 'header-mismatch' | 'unsupported-version' | 'method-not-found';

/** The revisions whose requests each carry their version and capabilities (the stateless ones). */
export const ENVELOPE_REVISIONS: readonly SpecVersion[] = revisionsWhere('request-metadata', (value) => value === 'per-request-envelope');

/** What one request is: of a revision with a handshake, of a stateless one (its envelope read), or refused. */
export type EnvelopeReading =
  | { readonly kind: 'handshake-era' }
  | { readonly kind: 'stateless'; readonly revision: SpecVersion; readonly logLevel?: LogLevel }
  | {
      readonly kind: 'refused';
      readonly refusal: Refusal;
      readonly code: number;
      readonly message: string;
      readonly data?: Readonly<Record<string, unknown>>;
    };

type JsonObject = Record<string, unknown>;

/** A header value without the optional whitespace around it (RFC 9110 §5.5). */
function fieldValue(value: string | undefined): string | undefined {
  return value?.replace(/^[ \t]+|[ \t]+$/g, '');
}

function refused(refusal: Refusal, code: number, message: string, data?: JsonObject): EnvelopeReading {
  return { kind: 'refused', refusal, code, message, ...(data === undefined ? {} : { data }) };
}

/** What is wrong with an envelope, in words; undefined when it has every required field, each of its type. */
function envelopeProblem(meta: JsonObject | undefined): string | undefined {
  if (meta === undefined) return 'params._meta is missing';
  if (typeof meta[META_KEYS.protocolVersion] !== 'string') return `_meta lacks ${META_KEYS.protocolVersion} (a string)`;
  if (asRecord(meta[META_KEYS.clientCapabilities]) === undefined) return `_meta lacks ${META_KEYS.clientCapabilities} (an object)`;
  const info = meta[META_KEYS.clientInfo];
  if (info !== undefined) {
    const named = asRecord(info);
    if (typeof named?.['name'] !== 'string' || typeof named['version'] !== 'string')
      return `_meta's ${META_KEYS.clientInfo} is not an Implementation (name and version, strings)`;
  }
  const level = meta[META_KEYS.logLevel];
  if (level !== undefined && !isLogLevel(level)) return `_meta's ${META_KEYS.logLevel} is not a log level`;
  return undefined;
}

/**
 * The standard headers of a stateless request against its body: each present (MCP-Protocol-Version, Mcp-Method, and
 * Mcp-Name where the method mirrors a body field that the body has) and equal to it, a Base64 sentinel decoded first.
 * What is wrong, in words; undefined when they agree.
 */
function headerProblem(headers: McpHeaders, method: string, params: JsonObject): string | undefined {
  if (fieldValue(headers.protocolVersion) === undefined) return `the ${HTTP_HEADERS.protocolVersion} header is missing`;
  const named = fieldValue(headers.method);
  if (named === undefined) return `the ${HTTP_HEADERS.method} header is missing`;
  if (named !== method) return `the ${HTTP_HEADERS.method} header names ${JSON.stringify(named)}, the body ${JSON.stringify(method)}`;
  const source = MCP_NAME_SOURCE[method];
  const bodyValue = source === undefined ? undefined : params[source];
  if (typeof bodyValue !== 'string') return undefined;
  const header = fieldValue(headers.name);
  if (header === undefined)
    return `the ${HTTP_HEADERS.name} header is missing (the body's params.${source} is ${JSON.stringify(bodyValue)})`;
  const decoded = decodeHeaderValue(header);
  if (decoded === undefined) return `the ${HTTP_HEADERS.name} header is not valid Base64 between =?base64? and ?=`;
  if (decoded !== bodyValue)
    return `the ${HTTP_HEADERS.name} header names ${JSON.stringify(decoded)}, the body's params.${source} ${JSON.stringify(bodyValue)}`;
  return undefined;
}

/**
 * Reads one request's era and envelope. A request is of a stateless revision when its envelope names a version (other
 * than one of a revision with a handshake), when it is `server/discover`, when its MCP-Protocol-Version header names a
 * stateless revision, or (`sessionRevision`, over stdio) when its session already speaks one; an `initialize` without
 * such an envelope opens a handshake-era session (a dual-era server serves both). A stateless request is refused, in this order, for a malformed envelope
 * (-32602), headers that contradict the body (-32020), a version the server does not speak (-32022, with the ones it
 * does), and headers missing or disagreeing with the named tool (-32020).
 */
export function readEnvelope(
  method: string,
  params: JsonObject,
  headers: McpHeaders | undefined,
  sessionRevision: SpecVersion | undefined,
): EnvelopeReading {
  const meta = asRecord(params['_meta']);
  const claimed = meta?.[META_KEYS.protocolVersion];
  const headerVersion = fieldValue(headers?.protocolVersion);
  const stateless = (revision: unknown): revision is SpecVersion => isSpecVersion(revision) && ENVELOPE_REVISIONS.includes(revision);
  if (method === METHODS.initialize && !stateless(claimed)) {
    if (!stateless(headerVersion)) return { kind: 'handshake-era' };
    return refused(
      'header-mismatch',
      ERROR_CODES.headerMismatch,
      `initialize opens a session of a revision with a handshake, but the ${HTTP_HEADERS.protocolVersion} header names ${headerVersion}`,
    );
  }
  const opensStateless = ENVELOPE_REVISIONS.some((revision) => fact(revision, 'handshake').value === method);
  if (claimed === undefined && !stateless(headerVersion) && !stateless(sessionRevision) && !opensStateless)
    return { kind: 'handshake-era' };
  // An envelope that names a revision with a handshake is that revision's request (a dual-era server serves it so).
  if (isSpecVersion(claimed) && !stateless(claimed) && !opensStateless) return { kind: 'handshake-era' };
  // The rules are those of the revision named, where it is one the server knows; else of the stateless revisions.
  const rules = [claimed, headerVersion, sessionRevision].find(stateless) ?? ENVELOPE_REVISIONS[0];
  if (rules === undefined) return { kind: 'handshake-era' };
  const problem = fact(rules, 'malformed-envelope').value === 'invalid-params' ? envelopeProblem(meta) : undefined;
  if (problem !== undefined)
    return refused(
      'malformed-envelope',
      ERROR_CODES.invalidParams,
      `Invalid params: ${problem}; each request of this revision carries ${META_KEYS.protocolVersion} and ${META_KEYS.clientCapabilities}`,
    );
  const version = String(claimed);
  const checksHeaders = headers !== undefined && fact(rules, 'http-header-mismatch').value === 'bad-request';
  if (checksHeaders && headerVersion !== undefined && headerVersion !== version)
    return refused(
      'header-mismatch',
      ERROR_CODES.headerMismatch,
      `Header mismatch: the ${HTTP_HEADERS.protocolVersion} header names ${JSON.stringify(headerVersion)}, the body's _meta ${JSON.stringify(version)}`,
    );
  const namedMethod = fieldValue(headers?.method);
  if (checksHeaders && namedMethod !== undefined && namedMethod !== method)
    return refused(
      'header-mismatch',
      ERROR_CODES.headerMismatch,
      `Header mismatch: the ${HTTP_HEADERS.method} header names ${JSON.stringify(namedMethod)}, the body ${JSON.stringify(method)}`,
    );
  if (!stateless(version))
    return refused('unsupported-version', ERROR_CODES.unsupportedProtocolVersion, `Unsupported protocol version ${version}`, {
      supported: [...ENVELOPE_REVISIONS],
      requested: version,
    });
  const headerIssue = checksHeaders && headers !== undefined ? headerProblem(headers, method, params) : undefined;
  if (headerIssue !== undefined) return refused('header-mismatch', ERROR_CODES.headerMismatch, `Header mismatch: ${headerIssue}`);
  const level = meta?.[META_KEYS.logLevel];
  return { kind: 'stateless', revision: version, ...(isLogLevel(level) ? { logLevel: level } : {}) };
}
