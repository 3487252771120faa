import type { JudgeOptions } from '../judges/judge-options.js';
import type { AddedHeader } from '../probe/request-headers.js';
import type { ListenerAllowances } from '../api/listener-guard.js';

/** What `mcprely proxy` is told: the server (a command, or an endpoint and where to listen), the recording and the judges' options. */
export interface ProxyOptions extends ListenerAllowances {
  /** The server command as one string (`--stdio`), or its words (after `--`). */
  readonly stdio?: string;
  readonly argv?: readonly string[];
  /** Streamable HTTP: the upstream server's endpoint (`--url`), and where to listen for the host (`--listen`). */
  readonly url?: string;
  readonly listen?: string;
  /** Streamable HTTP: headers added to every upstream request (`--header`), in place of the host's of the same name. */
  readonly headers?: readonly AddedHeader[];
  readonly record?: string;
  readonly judge: JudgeOptions;
}
