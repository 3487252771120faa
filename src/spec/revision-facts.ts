import { SPEC_VERSIONS, type SpecVersion } from './revisions.js';
import { METHODS } from '../protocol/methods.js';

/**
 * How strongly the specification says something: its own keyword (RFC 2119), or `defines` for a statement of
 * how the protocol works that carries no keyword ("closing the response stream is the cancellation").
 */
export type Strength = 'MUST' | 'MUST NOT' | 'SHOULD' | 'SHOULD NOT' | 'MAY' | 'defines';

/** One statement of one revision: what it says, how strongly, and the page that says it. */
export interface Fact<V = unknown> {
  readonly value: V;
  readonly strength: Strength;
  /** The statement, in the spec's words where it has them (quoted). */
  readonly says: string;
  /** A page of the revision's specification (`basic/patterns/cancellation`), or a full URL outside it. */
  readonly page: string;
}

/**
 * The facts mcprely's rules, reviews, fixtures, simulator and probe rest on, per revision. A value names what
 * the revision requires; `says` and `page` let every message and rule page quote it with its strength.
 */
export interface RevisionFacts {
  /** How a Streamable HTTP client cancels a request. */
  readonly 'http-cancel-signal': Fact<'notification' | 'close-stream'>;
  /** How a stdio client cancels a request. */
  readonly 'stdio-cancel-signal': Fact<'notification'>;
  /** Whether a closed HTTP response stream cancels its request. */
  readonly 'disconnect-is-cancellation': Fact<boolean>;
  /** Whether a server may write anything more for a request whose stream the client closed. */
  readonly 'silent-after-disconnect': Fact<boolean>;
  /** Whether a client may resume a broken SSE stream with Last-Event-ID. */
  readonly 'last-event-id-resumption': Fact<boolean>;
  /** What a client does after a broken response stream. */
  readonly 'reissue-after-broken-stream': Fact<'new-request-id' | 'resume-or-new-request-id'>;
  /** For which requests a server may send notifications/cancelled. */
  readonly 'server-sent-cancellation': Fact<'listen-stream-on-stdio' | 'own-requests'>;
  /** Whether there is an initialize handshake, and whether it may be cancelled. */
  readonly 'initialize-cancellation': Fact<'not-cancellable' | 'no-handshake'>;
  /** What answering tasks/cancel means. */
  readonly 'task-cancel': Fact<'terminal-before-answer' | 'acknowledge'>;
  /** Which side may send notifications/progress. */
  readonly 'progress-senders': Fact<'either-side' | 'server-only'>;
  /** Where request-scoped notifications (progress, logging) travel on Streamable HTTP. */
  readonly 'request-scoped-notifications': Fact<'any-stream' | 'originating-stream'>;
  /** What a GET on the MCP endpoint does. */
  readonly 'http-get': Fact<'optional-listen-stream' | 'method-not-allowed'>;
  /** How a client starts talking to a server. */
  readonly handshake: Fact<'initialize' | 'server/discover'>;
  /** Where a request's protocol version and client information travel: negotiated once per session, or in every request. */
  readonly 'request-metadata': Fact<'session' | 'per-request-envelope'>;
  /** Whether HTTP requests carry Mcp-Method and Mcp-Name headers beside MCP-Protocol-Version. */
  readonly 'http-routing-headers': Fact<boolean>;
  /** Whether Streamable HTTP has sessions (Mcp-Session-Id). */
  readonly 'http-sessions': Fact<boolean>;
  /** Whether SSE responses carry X-Accel-Buffering: no by the spec itself (the lesson asks for it on both). */
  readonly 'sse-no-buffering-header': Fact<boolean>;
  /** Whether subscriptions/listen exists. */
  readonly 'subscriptions-listen': Fact<boolean>;
  /** The receiver of a cancellation stops, frees resources and sends no response. */
  readonly 'receiver-stops': Fact<true>;
  /** Invalid, unknown and late cancellations are ignored (a notification never gets a response). */
  readonly 'invalid-cancellation-ignored': Fact<true>;
  /** The sender of a cancellation ignores a response that arrives afterwards. */
  readonly 'late-response-ignored': Fact<true>;
  /** Every request sent has a timeout. */
  readonly 'request-timeouts': Fact<true>;
  /** On a timeout the sender cancels with the transport's signal and stops waiting. */
  readonly 'cancel-on-timeout': Fact<true>;
  /** A maximum timeout holds whatever progress arrives. */
  readonly 'maximum-timeout': Fact<true>;
  /** Progress may reset the timeout clock. */
  readonly 'progress-may-reset-timeout': Fact<true>;
  /** Progress values increase with every notification. */
  readonly 'progress-increases': Fact<true>;
  /** Progress references only active requests and stops at completion. */
  readonly 'progress-stops': Fact<true>;
  /** Both sides rate-limit progress. */
  readonly 'progress-rate-limit': Fact<true>;
  /** A progress token is unique among the requester's active requests. */
  readonly 'progress-token-unique': Fact<true>;
  /** Tool annotations are untrusted hints. */
  readonly 'annotations-untrusted': Fact<true>;
  /** Tasks are cancelled with tasks/cancel, never notifications/cancelled. */
  readonly 'task-cancel-method': Fact<'tasks/cancel'>;
  /** Task state is durable and outlives the request that created it. */
  readonly 'task-durable': Fact<true>;
  /** The requester polls (or listens) until the task reaches a terminal status. */
  readonly 'task-wait-until-terminal': Fact<true>;
  /** How a request becomes a task: asked for by the client (params.task), or decided by the server. */
  readonly 'task-augmentation': Fact<'params-task' | 'server-directed'>;
  /** Where a server declares that it runs tool calls as tasks. */
  readonly 'task-capability': Fact<'capabilities-tasks' | 'extension'>;
  /** How the result of a task is fetched: tasks/result, or inline in tasks/get. */
  readonly 'task-result': Fact<'tasks-result' | 'inline'>;
  /** Whether the progress token of a task-augmented request lives as long as the task. */
  readonly 'task-progress': Fact<'task-lifetime' | 'not-on-tasks'>;
  /** What tasks/cancel of a task already terminal gets. */
  readonly 'task-cancel-terminal': Fact<'invalid-params' | 'unspecified'>;
  /** Who can reach a task by its id: the context (session or authorization) that created it, or any client holding the id. */
  readonly 'task-lookup': Fact<'creating-context' | 'any-client'>;
  /** The request methods that can run as a task; a request of any other method is answered as a plain request. */
  readonly 'task-methods': Fact<readonly string[]>;
  /** How long a receiver keeps a task and its result: a TTL counted from the task's creation, after which it may delete both. */
  readonly 'task-ttl': Fact<'from-creation'>;
  /** Tool names are unique within a server. */
  readonly 'tool-names-unique': Fact<true>;
  /** Whether a request may end with input_required and be retried as a new request (Multi Round-Trip Requests). */
  readonly 'multi-round-trip': Fact<boolean>;
  /** Whether every result names its kind (`resultType`), and a client rejects one that does not. */
  readonly 'result-type': Fact<'absent' | 'required'>;
  /** A requester never uses a request id twice. */
  readonly 'request-id-unique': Fact<true>;
  /** A cancellation names only a request its sender issued and still waits for. */
  readonly 'cancel-in-flight-only': Fact<true>;
  /** A notification is never answered. */
  readonly 'notification-no-response': Fact<true>;
  /** The methods whose complete results carry the caching hints `ttlMs` and `cacheScope`. */
  readonly 'cacheable-results': Fact<readonly string[]>;
  /** Where a server names itself: in its initialize result, or in every result's `_meta`. */
  readonly 'server-info': Fact<'initialize-result' | 'result-meta'>;
  /** Whether `ping` exists. */
  readonly ping: Fact<boolean>;
  /** How a client chooses the log messages it gets: logging/setLevel for the session, or a level in each request's `_meta`. */
  readonly 'logging-control': Fact<'set-level' | 'request-meta'>;
  /** What a server does with a protocol version it does not speak: answers initialize with one it does, or refuses the request. */
  readonly 'unsupported-version': Fact<'negotiate' | 'unsupported-version-error'>;
  /** What a server does with a request whose per-request envelope lacks a required field. */
  readonly 'malformed-envelope': Fact<'no-envelope' | 'invalid-params'>;
  /** Whether a Streamable HTTP server rejects a request whose MCP headers are missing or contradict the body (400, HeaderMismatch). */
  readonly 'http-header-mismatch': Fact<'not-checked' | 'bad-request'>;
  /** How a Streamable HTTP server answers a method it does not implement: a JSON-RPC error alone, or that error with 404. */
  readonly 'http-method-not-found': Fact<'in-band' | 'not-found'>;
}

export type FactId = keyof RevisionFacts;

const CANCELLATION_2025 = 'basic/utilities/cancellation';
const CANCELLATION_2026 = 'basic/patterns/cancellation';
const PROGRESS_2025 = 'basic/utilities/progress';
const PROGRESS_2026 = 'basic/patterns/progress';
const TRANSPORTS_2025 = 'basic/transports';
const HTTP_2026 = 'basic/transports/streamable-http';
const TASKS_2025 = 'basic/utilities/tasks';
const TASKS_2026 = 'https://github.com/modelcontextprotocol/ext-tasks';
const LIFECYCLE_2025 = 'basic/lifecycle';
const ANNOTATIONS = 'schema#toolannotations';

const FACTS: Readonly<Record<SpecVersion, RevisionFacts>> = {
  '2025-11-25': {
    'http-cancel-signal': {
      value: 'notification',
      strength: 'SHOULD',
      page: CANCELLATION_2025,
      says: 'a party that wants to cancel a request sends notifications/cancelled; on Streamable HTTP the client POSTs it',
    },
    'stdio-cancel-signal': {
      value: 'notification',
      strength: 'defines',
      page: CANCELLATION_2025,
      says: 'a party that wants to cancel an in-progress request sends a notifications/cancelled notification',
    },
    'disconnect-is-cancellation': {
      value: false,
      strength: 'SHOULD NOT',
      page: TRANSPORTS_2025,
      says: '"Disconnection SHOULD NOT be interpreted as the client cancelling its request"',
    },
    'silent-after-disconnect': {
      value: false,
      strength: 'defines',
      page: TRANSPORTS_2025,
      says: 'a disconnect is not a cancellation: the request goes on and its result may be redelivered on a resumed stream',
    },
    'last-event-id-resumption': {
      value: true,
      strength: 'MAY',
      page: TRANSPORTS_2025,
      says: 'a client MAY resume a broken stream with the Last-Event-ID header; the server MAY replay the events after it',
    },
    'reissue-after-broken-stream': {
      value: 'resume-or-new-request-id',
      strength: 'MUST',
      page: 'basic',
      says:
        'resume the stream with Last-Event-ID, or send a new request: a request id ' +
        '"MUST NOT have been previously used by the requestor within the same session"',
    },
    'server-sent-cancellation': {
      value: 'own-requests',
      strength: 'MUST',
      page: CANCELLATION_2025,
      says: 'cancellation notifications "MUST only reference requests that were previously issued in the same direction"',
    },
    'initialize-cancellation': {
      value: 'not-cancellable',
      strength: 'MUST NOT',
      page: CANCELLATION_2025,
      says: '"The initialize request MUST NOT be cancelled by clients"',
    },
    'task-cancel': {
      value: 'terminal-before-answer',
      strength: 'MUST',
      page: TASKS_2025,
      says: 'tasks/cancel MUST move the task to cancelled before responding; terminal statuses MUST NOT change',
    },
    'progress-senders': {
      value: 'either-side',
      strength: 'MAY',
      page: PROGRESS_2025,
      says: 'either side MAY send progress for a request it received that carries a progressToken',
    },
    'request-scoped-notifications': {
      value: 'any-stream',
      strength: 'MAY',
      page: TRANSPORTS_2025,
      says: 'the server MAY send requests and notifications on the SSE stream of a request or on the GET stream',
    },
    'http-get': {
      value: 'optional-listen-stream',
      strength: 'MAY',
      page: TRANSPORTS_2025,
      says: 'the client MAY issue a GET to open an SSE stream; a server that offers none answers 405',
    },
    'request-metadata': {
      value: 'session',
      strength: 'MUST',
      page: LIFECYCLE_2025,
      says: 'the protocol version and capabilities are negotiated once, by initialize, for the whole session',
    },
    'http-routing-headers': {
      value: false,
      strength: 'MUST',
      page: TRANSPORTS_2025,
      says: 'HTTP requests after initialization MUST carry the MCP-Protocol-Version header',
    },
    handshake: {
      value: METHODS.initialize,
      strength: 'MUST',
      page: LIFECYCLE_2025,
      says: 'the initialization phase MUST be the first interaction between client and server',
    },
    'http-sessions': {
      value: true,
      strength: 'MAY',
      page: TRANSPORTS_2025,
      says: 'a server MAY assign a session id (Mcp-Session-Id) at initialization',
    },
    'sse-no-buffering-header': {
      value: false,
      strength: 'defines',
      page: TRANSPORTS_2025,
      says: 'the revision names no proxy-buffering header (the reliability lesson asks for X-Accel-Buffering: no)',
    },
    'subscriptions-listen': {
      value: false,
      strength: 'defines',
      page: 'server/resources',
      says: 'no subscriptions/listen: resources/subscribe and the GET stream carry change notifications',
    },
    'receiver-stops': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2025,
      says: 'receivers of cancellation notifications SHOULD stop processing the cancelled request, free associated resources and not send a response',
    },
    'invalid-cancellation-ignored': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2025,
      says: 'receivers MAY ignore a cancellation for an unknown, finished or uncancellable request; invalid cancellation notifications SHOULD be ignored',
    },
    'late-response-ignored': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2025,
      says: 'the sender of the cancellation notification SHOULD ignore any response to the request that arrives afterward',
    },
    'request-timeouts': {
      value: true,
      strength: 'SHOULD',
      page: LIFECYCLE_2025,
      says: 'implementations SHOULD establish timeouts for all sent requests',
    },
    'cancel-on-timeout': {
      value: true,
      strength: 'SHOULD',
      page: LIFECYCLE_2025,
      says: 'when the request has not received a response within the timeout period, the sender SHOULD issue a cancellation notification and stop waiting',
    },
    'maximum-timeout': {
      value: true,
      strength: 'SHOULD',
      page: LIFECYCLE_2025,
      says: 'implementations "SHOULD always enforce a maximum timeout, regardless of progress notifications"',
    },
    'progress-may-reset-timeout': {
      value: true,
      strength: 'MAY',
      page: LIFECYCLE_2025,
      says: 'implementations MAY choose to reset the timeout clock when receiving a progress notification',
    },
    'progress-increases': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2025,
      says: 'the progress value "MUST increase with each notification, even if the total is unknown"',
    },
    'progress-stops': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2025,
      says: 'progress notifications MUST only reference tokens of active, in-progress requests',
    },
    'progress-rate-limit': {
      value: true,
      strength: 'SHOULD',
      page: PROGRESS_2025,
      says: '"Both parties SHOULD implement rate limiting to prevent flooding"',
    },
    'progress-token-unique': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2025,
      says: 'progress tokens MUST be unique across all active requests',
    },
    'annotations-untrusted': {
      value: true,
      strength: 'MUST',
      page: ANNOTATIONS,
      says: 'clients "MUST consider tool annotations to be untrusted unless they come from trusted servers"',
    },
    'task-cancel-method': {
      value: METHODS.tasksCancel,
      strength: 'MUST',
      page: CANCELLATION_2025,
      says: '"For task-augmented requests, the tasks/cancel request MUST be used instead of the notifications/cancelled notification"',
    },
    'task-durable': {
      value: true,
      strength: 'defines',
      page: TASKS_2025,
      says: 'tasks are durable state machines for requestor polling and deferred result retrieval',
    },
    'task-wait-until-terminal': {
      value: true,
      strength: 'defines',
      page: TASKS_2025,
      says: 'requestors are responsible for polling (tasks/get, tasks/result) for the results of their tasks',
    },
    'task-augmentation': {
      value: 'params-task',
      strength: 'defines',
      page: TASKS_2025,
      says:
        'a requestor asks for a task with params.task ({ ttl }) and gets CreateTaskResult ({ task }); ' +
        'a tool says whether it may run as one in execution.taskSupport (required, optional, forbidden or absent)',
    },
    'task-capability': {
      value: 'capabilities-tasks',
      strength: 'MUST',
      page: TASKS_2025,
      says: 'a server that accepts task-augmented tools/call declares capabilities.tasks.requests.tools.call in its initialize result',
    },
    'task-result': {
      value: 'tasks-result',
      strength: 'defines',
      page: TASKS_2025,
      says: 'tasks/result returns the result of the original request (for tools/call a CallToolResult) once the task is terminal',
    },
    'task-progress': {
      value: 'task-lifetime',
      strength: 'MUST',
      page: TASKS_2025,
      says: 'the progressToken of a task-augmented request stays valid for the life of the task; progress MUST stop when the task is terminal',
    },
    'task-cancel-terminal': {
      value: 'invalid-params',
      strength: 'MUST',
      page: TASKS_2025,
      says: 'tasks/cancel of a task in a terminal status MUST be refused with -32602 (Invalid params)',
    },
    'task-lookup': {
      value: 'creating-context',
      strength: 'MUST',
      page: TASKS_2025,
      says:
        'receivers MUST bind tasks to the authorization context that created them where there is one; ' +
        'a server may scope tasks to their session, so a new session need not find them',
    },
    'task-methods': {
      value: [METHODS.toolsCall, 'sampling/createMessage', 'elicitation/create'],
      strength: 'MUST',
      page: TASKS_2025,
      says:
        'receivers declare the request types that can be task-augmented (capabilities.tasks.requests): tools/call on a server, ' +
        'sampling/createMessage and elicitation/create on a client; a receiver that does not declare a request type ' +
        'MUST process its requests normally, ignoring any task-augmentation metadata',
    },
    'task-ttl': {
      value: 'from-creation',
      strength: 'MAY',
      page: TASKS_2025,
      says:
        "ttl is measured from the task's creation; after it elapses the receiver MAY delete the task and its results, " +
        'whatever its status; the receiver suggests how often to poll with pollInterval',
    },
    'request-id-unique': {
      value: true,
      strength: 'MUST NOT',
      page: 'basic',
      says: 'the request ID MUST NOT have been previously used by the requestor within the same session',
    },
    'cancel-in-flight-only': {
      value: true,
      strength: 'MUST',
      page: CANCELLATION_2025,
      says:
        'cancellation notifications MUST only reference requests that were previously issued in the same direction ' +
        'and are believed to still be in progress',
    },
    'notification-no-response': {
      value: true,
      strength: 'MUST NOT',
      page: 'basic',
      says: 'notifications are one-way messages: the receiver MUST NOT send a response',
    },
    'tool-names-unique': { value: true, strength: 'SHOULD', page: 'server/tools', says: 'tool names SHOULD be unique within a server' },
    'multi-round-trip': {
      value: false,
      strength: 'defines',
      page: 'client/elicitation',
      says:
        'there is no input_required result: a server that needs input asks the client with a request of its own (elicitation) ' +
        'while the original request runs',
    },
    'result-type': {
      value: 'absent',
      strength: 'defines',
      page: 'basic',
      says: 'a result has no resultType: a response is final by being one',
    },
    'cacheable-results': {
      value: [],
      strength: 'defines',
      page: 'schema',
      says: 'results carry no caching hints (no ttlMs, no cacheScope)',
    },
    'server-info': {
      value: 'initialize-result',
      strength: 'MUST',
      page: LIFECYCLE_2025,
      says: 'the server names itself once, in the serverInfo of its InitializeResult (required by the schema)',
    },
    ping: {
      value: true,
      strength: 'MUST',
      page: 'basic/utilities/ping',
      says: 'either side MAY send ping; "The receiver MUST respond promptly with an empty response"',
    },
    'logging-control': {
      value: 'set-level',
      strength: 'MUST',
      page: 'server/utilities/logging',
      says:
        'servers that emit log message notifications "MUST declare the logging capability"; ' +
        'clients MAY send logging/setLevel to set the minimum level of the session',
    },
    'unsupported-version': {
      value: 'negotiate',
      strength: 'MUST',
      page: LIFECYCLE_2025,
      says: 'a server that does not support the version the client asks for in initialize "MUST respond with another protocol version it supports"',
    },
    'malformed-envelope': {
      value: 'no-envelope',
      strength: 'defines',
      page: LIFECYCLE_2025,
      says: 'requests carry no per-request envelope: the version and capabilities were negotiated by initialize',
    },
    'http-header-mismatch': {
      value: 'not-checked',
      strength: 'defines',
      page: TRANSPORTS_2025,
      says: 'requests carry MCP-Protocol-Version only; the revision has no Mcp-Method or Mcp-Name headers to check against the body',
    },
    'http-method-not-found': {
      value: 'in-band',
      strength: 'defines',
      page: TRANSPORTS_2025,
      says: 'a request is answered with a JSON-RPC response; the revision gives no HTTP status for an unknown method',
    },
  },
  '2026-07-28': {
    'http-cancel-signal': {
      value: 'close-stream',
      strength: 'defines',
      page: CANCELLATION_2026,
      says: 'on Streamable HTTP "closing the SSE response stream is the cancellation signal"; "no notifications/cancelled message is required or expected"',
    },
    'stdio-cancel-signal': {
      value: 'notification',
      strength: 'MUST',
      page: CANCELLATION_2026,
      says: 'on stdio "the client MUST send a notifications/cancelled notification referencing the request ID"',
    },
    'disconnect-is-cancellation': {
      value: true,
      strength: 'MUST',
      page: CANCELLATION_2026,
      says: 'the server "MUST treat a client disconnect as cancellation of that request"',
    },
    'silent-after-disconnect': {
      value: true,
      strength: 'MUST NOT',
      page: HTTP_2026,
      says: 'after a disconnect the server "MUST NOT send any further messages" for the request',
    },
    'last-event-id-resumption': {
      value: false,
      strength: 'defines',
      page: HTTP_2026,
      says: '"Resumable SSE streams via Last-Event-ID are not supported"',
    },
    'reissue-after-broken-stream': {
      value: 'new-request-id',
      strength: 'MUST',
      page: HTTP_2026,
      says: '"A broken response stream loses the in-flight request; clients MUST re-issue it as a new request with a new request ID"',
    },
    'server-sent-cancellation': {
      value: 'listen-stream-on-stdio',
      strength: 'MUST NOT',
      page: CANCELLATION_2026,
      says:
        'a server sends notifications/cancelled only when it tears down a subscriptions/listen stream; ' +
        '"Servers MUST NOT send notifications/cancelled for any other purpose"',
    },
    'initialize-cancellation': {
      value: 'no-handshake',
      strength: 'defines',
      page: 'basic/lifecycle',
      says: 'the stateless revision has no initialize handshake to cancel',
    },
    'task-cancel': {
      value: 'acknowledge',
      strength: 'MAY',
      page: TASKS_2026,
      says: 'tasks/cancel returns an empty acknowledgement and is eventually consistent: the task MAY still end completed or failed',
    },
    'progress-senders': {
      value: 'server-only',
      strength: 'defines',
      page: PROGRESS_2026,
      says: "only the server sends progress, on the originating request's stream",
    },
    'request-scoped-notifications': {
      value: 'originating-stream',
      strength: 'MUST',
      page: HTTP_2026,
      says: "progress and other request-scoped notifications travel on the originating request's response stream, never on the subscriptions/listen stream",
    },
    'http-get': {
      value: 'method-not-allowed',
      strength: 'MUST',
      page: HTTP_2026,
      says: 'the endpoint accepts POST only; GET and DELETE are answered 405 Method Not Allowed',
    },
    'request-metadata': {
      value: 'per-request-envelope',
      strength: 'MUST',
      page: 'basic/lifecycle',
      says: 'every request carries its protocol version, client information and capabilities in params._meta',
    },
    'http-routing-headers': {
      value: true,
      strength: 'MUST',
      page: HTTP_2026,
      says: 'requests carry MCP-Protocol-Version, Mcp-Method and Mcp-Name (for tools/call, resources/read, prompts/get) headers',
    },
    handshake: {
      value: METHODS.discover,
      strength: 'MAY',
      page: 'basic/lifecycle',
      says: 'requests are stateless and carry their protocol version; a client MAY call server/discover to learn what the server supports',
    },
    'http-sessions': { value: false, strength: 'defines', page: HTTP_2026, says: 'there are no sessions; Mcp-Session-Id is ignored' },
    'sse-no-buffering-header': {
      value: true,
      strength: 'SHOULD',
      page: HTTP_2026,
      says: 'the server SHOULD send X-Accel-Buffering: no on SSE responses so proxies deliver events at once',
    },
    'subscriptions-listen': {
      value: true,
      strength: 'defines',
      page: 'basic/patterns/subscriptions',
      says: 'subscriptions/listen is a long-lived request whose stream first carries notifications/subscriptions/acknowledged',
    },
    'receiver-stops': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: 'receivers of a cancellation SHOULD stop processing the cancelled request, free associated resources and not send a response',
    },
    'invalid-cancellation-ignored': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: 'receivers MAY ignore a cancellation for an unknown, finished or uncancellable request; invalid cancellation notifications SHOULD be ignored',
    },
    'late-response-ignored': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: 'the client SHOULD ignore a response that arrives after it cancelled',
    },
    'request-timeouts': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: 'implementations SHOULD establish timeouts for all sent requests',
    },
    'cancel-on-timeout': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: "when a request times out the sender SHOULD cancel it with the transport's mechanism and stop waiting for a response",
    },
    'maximum-timeout': {
      value: true,
      strength: 'SHOULD',
      page: CANCELLATION_2026,
      says: 'implementations "SHOULD always enforce a maximum timeout, regardless of progress notifications"',
    },
    'progress-may-reset-timeout': {
      value: true,
      strength: 'MAY',
      page: CANCELLATION_2026,
      says: 'implementations MAY reset the timeout clock when a progress notification arrives',
    },
    'progress-increases': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2026,
      says: 'progress "MUST increase with each notification, even if the total is unknown"',
    },
    'progress-stops': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2026,
      says: 'notifications MUST reference only tokens of active, in-progress requests and MUST stop once the operation completes',
    },
    'progress-rate-limit': { value: true, strength: 'SHOULD', page: PROGRESS_2026, says: '"Both parties SHOULD implement rate limiting"' },
    'progress-token-unique': {
      value: true,
      strength: 'MUST',
      page: PROGRESS_2026,
      says: "the token MUST be unique across the client's active requests",
    },
    'annotations-untrusted': {
      value: true,
      strength: 'MUST',
      page: ANNOTATIONS,
      says: 'clients "MUST consider tool annotations to be untrusted unless they come from trusted servers"',
    },
    'task-cancel-method': {
      value: METHODS.tasksCancel,
      strength: 'MUST NOT',
      page: CANCELLATION_2026,
      says: 'notifications/cancelled "MUST NOT be used for task cancellation"; tasks are cancelled with tasks/cancel',
    },
    'task-durable': {
      value: true,
      strength: 'MUST NOT',
      page: TASKS_2026,
      says: 'the server MUST NOT return the create result until the task is durably created',
    },
    'task-wait-until-terminal': {
      value: true,
      strength: 'defines',
      page: TASKS_2026,
      says: 'tasks/cancel is eventually consistent: clients poll tasks/get or listen until a terminal status',
    },
    'task-augmentation': {
      value: 'server-directed',
      strength: 'defines',
      page: TASKS_2026,
      says:
        "the client declares io.modelcontextprotocol/tasks in each request's capabilities (_meta clientCapabilities.extensions); " +
        'the server alone decides whether to answer with a task (resultType: "task", the Task fields at the top of the result)',
    },
    'task-capability': {
      value: 'extension',
      strength: 'defines',
      page: TASKS_2026,
      says: 'the server lists io.modelcontextprotocol/tasks in capabilities.extensions of its server/discover result',
    },
    'task-result': {
      value: 'inline',
      strength: 'MUST',
      page: TASKS_2026,
      says: 'tasks/get of a completed task MUST carry its result (of a failed one, its error); there is no tasks/result',
    },
    'task-progress': {
      value: 'not-on-tasks',
      strength: 'defines',
      page: TASKS_2026,
      says: 'notifications/progress "are not supported on tasks in general": the request that created the task is complete',
    },
    'task-cancel-terminal': {
      value: 'unspecified',
      strength: 'defines',
      page: TASKS_2026,
      says: 'tasks/cancel is acknowledged with an empty result; the extension says nothing of cancelling a terminal task',
    },
    'task-lookup': {
      value: 'any-client',
      strength: 'MUST NOT',
      page: TASKS_2026,
      says:
        'the server MUST NOT return the create result until a tasks/get for its taskId would resolve; ' +
        'clients SHOULD persist task ids so that polling can resume after a crash or restart',
    },
    'task-methods': {
      value: [METHODS.toolsCall],
      strength: 'MUST',
      page: TASKS_2026,
      says:
        'the methods that support task-augmented execution are tools/call alone; a client that receives CreateTaskResult ' +
        'in response to an unsupported request type MUST interpret this as an invalid response to the request',
    },
    'task-ttl': {
      value: 'from-creation',
      strength: 'MAY',
      page: TASKS_2026,
      says:
        'ttlMs is the time to live from creation; the server may discard the task after the TTL elapses; clients SHOULD ' +
        'honor pollIntervalMs, the suggested polling interval',
    },
    'request-id-unique': {
      value: true,
      strength: 'MUST NOT',
      page: 'basic',
      says: 'the request ID MUST NOT have been previously used by the requestor within the same session',
    },
    'cancel-in-flight-only': {
      value: true,
      strength: 'MUST',
      page: CANCELLATION_2026,
      says:
        'cancellation notifications MUST only reference requests that were previously issued in the same direction ' +
        'and are believed to still be in progress',
    },
    'notification-no-response': {
      value: true,
      strength: 'MUST NOT',
      page: 'basic',
      says: 'notifications are one-way messages: the receiver MUST NOT send a response',
    },
    'tool-names-unique': { value: true, strength: 'SHOULD', page: 'server/tools', says: 'tool names SHOULD be unique within a server' },
    'multi-round-trip': {
      value: true,
      strength: 'defines',
      page: 'https://pournasserian.com/writing/mcp-2026-multi-round-trip-requests',
      says: 'a request may end with input_required; the original request has then finished, and the client retries it as a new request carrying requestState',
    },
    'result-type': {
      value: 'required',
      strength: 'MUST',
      page: 'basic',
      says: 'every result carries resultType ("complete" for a final result; "input_required" or "task" otherwise): a result without it is invalid',
    },
    'cacheable-results': {
      value: [
        METHODS.discover,
        METHODS.toolsList,
        METHODS.promptsList,
        METHODS.resourcesList,
        METHODS.resourceTemplatesList,
        METHODS.resourcesRead,
      ],
      strength: 'MUST',
      page: 'server/utilities/caching',
      says:
        '"Servers MUST include caching hints on results with resultType: complete" of server/discover, tools/list, prompts/list, ' +
        'resources/list, resources/templates/list and resources/read: ttlMs (an integer >= 0) and cacheScope ("public" or "private")',
    },
    'server-info': {
      value: 'result-meta',
      strength: 'SHOULD',
      page: 'basic',
      says:
        "servers SHOULD include io.modelcontextprotocol/serverInfo in every result's _meta; the DiscoverResult has no serverInfo of its own " +
        '(schema.ts: ResultMetaObject)',
    },
    ping: {
      value: false,
      strength: 'defines',
      page: 'changelog',
      says: '"Remove ping, logging/setLevel, and notifications/roots/list_changed"',
    },
    'logging-control': {
      value: 'request-meta',
      strength: 'MUST NOT',
      page: 'server/utilities/logging',
      says:
        "the level is set per request in _meta's io.modelcontextprotocol/logLevel; " +
        '"servers MUST NOT emit notifications/message for requests that did not include this field"',
    },
    'unsupported-version': {
      value: 'unsupported-version-error',
      strength: 'MUST',
      page: 'basic/versioning',
      says:
        'a server that does not implement the requested version "MUST respond with an UnsupportedProtocolVersionError listing the ' +
        'versions it does support" (-32022, data: supported and requested); on HTTP with 400 Bad Request',
    },
    'malformed-envelope': {
      value: 'invalid-params',
      strength: 'MUST',
      page: 'basic',
      says:
        '"A request missing any required field is malformed; the server MUST reject it with JSON-RPC error code -32602 (Invalid ' +
        'params). On HTTP, the response status MUST be 400 Bad Request" (protocolVersion and clientCapabilities are required)',
    },
    'http-header-mismatch': {
      value: 'bad-request',
      strength: 'MUST',
      page: HTTP_2026,
      says:
        'servers "MUST reject requests where the values specified in the headers do not match the corresponding values in the ' +
        'request body" (or a required MCP-Protocol-Version, Mcp-Method or Mcp-Name is missing) with 400 Bad Request and -32020',
    },
    'http-method-not-found': {
      value: 'not-found',
      strength: 'MUST',
      page: HTTP_2026,
      says:
        '"If the server does not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with ' +
        'code -32601"',
    },
  },
};

/** The facts of one revision. */
export function factsOf(revision: SpecVersion): RevisionFacts {
  return FACTS[revision];
}

/** One fact of one revision. */
export function fact<Id extends FactId>(revision: SpecVersion, id: Id): RevisionFacts[Id] {
  return FACTS[revision][id];
}

export const FACT_IDS: readonly FactId[] = Object.keys(FACTS[SPEC_VERSIONS[0]]) as FactId[];

export function isFactId(value: unknown): value is FactId {
  return typeof value === 'string' && (FACT_IDS as readonly string[]).includes(value);
}

/** The revisions on which a fact has the given value. */
export function revisionsWhere(id: FactId, holds: (value: unknown) => boolean): SpecVersion[] {
  return SPEC_VERSIONS.filter((revision) => holds(FACTS[revision][id].value));
}
