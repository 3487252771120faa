import type { TranscriptEntry } from '../simulator/transcript.js';
import { wordLines } from '../text/word-lines.js';

/** Characters per line of a message or note: what the narrowest box of src/html/sequence-svg.ts holds. */
export const LABEL_WIDTH = 36;
/** Lines per label at most; a longer label ends at a word with `…`. */
const LABEL_LINES = 5;
/** How mermaid breaks a line inside a message or a note. */
const LINE_BREAK = '<br/>';

/**
 * Where a transcript lane's notes go and what they say they are about: the client, the server and the proxy
 * are participants; the ledger, the buffer and the task store are the server's parts, named in their notes.
 */
const NOTES: Readonly<Record<string, { readonly over: 'C' | 'P' | 'S'; readonly subject?: string }>> = {
  client: { over: 'C' },
  server: { over: 'S' },
  proxy: { over: 'P' },
  ledger: { over: 'S', subject: 'ledger' },
  buffer: { over: 'S', subject: 'buffer' },
  tasks: { over: 'S', subject: 'task store' },
};

/**
 * A transcript as a mermaid sequence diagram, which GitHub renders in markdown: Client and Server, and a Proxy
 * between them when the transcript has one. Long labels wrap at words (`<br/>`), never cut inside one.
 */
export function sequenceDiagram(entries: readonly TranscriptEntry[]): string {
  const lines = ['sequenceDiagram', '    participant C as Client'];
  if (entries.some((entry) => entry.lane === 'proxy')) lines.push('    participant P as Proxy');
  lines.push('    participant S as Server');
  for (const entry of entries) {
    if (entry.lane === 'client → server') lines.push(`    C->>S: ${label(entry.text)}`);
    else if (entry.lane === 'server → client') lines.push(`    S-->>C: ${label(entry.text)}`);
    else {
      // A lane this table does not know yet is still named: its note says which part of the server it is.
      const note = NOTES[entry.lane] ?? { over: 'S', subject: entry.lane };
      lines.push(`    Note over ${note.over}: ${label(note.subject === undefined ? entry.text : `${note.subject}: ${entry.text}`)}`);
    }
  }
  return lines.join('\n');
}

/** A label: JSON-RPC messages summarised, made safe for mermaid, in lines of whole words. */
function label(text: string): string {
  const safe = summarised(text).replace(/[;#]/g, ',').replace(/"/g, "'").replace(/[<>]/g, '');
  // A number keeps its unit and an id its word on one line (a no-break space, which mermaid draws as a space).
  const glued = safe.replace(/(\d) (ms|s)\b/g, '$1\u00a0$2').replace(/\(id /g, '(id\u00a0');
  return wordLines(glued, LABEL_WIDTH, LABEL_LINES).join(LINE_BREAK);
}

/**
 * The text with each JSON-RPC message in it (a wire message, `POST {…}`, or one a note quotes) as its method
 * and id, or as a response or an error. Other braces (`{taskId}`, a URI template) are left as written.
 */
function summarised(text: string): string {
  let out = '';
  let from = 0;
  for (let open = text.indexOf('{"'); open !== -1; open = text.indexOf('{"', from)) {
    const close = closingBrace(text, open);
    if (close === -1) break;
    const summary = messageSummary(text.slice(open, close + 1));
    if (summary === undefined) {
      out += text.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    out += text.slice(from, open) + summary;
    from = close + 1;
  }
  return out + text.slice(from);
}

/** The index of the brace that closes the object opened at `open` (strings skipped), or -1. */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let index = open; index < text.length; index++) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index++;
      else if (character === '"') inString = false;
    } else if (character === '"') inString = true;
    else if (character === '{') depth++;
    else if (character === '}' && --depth === 0) return index;
  }
  return -1;
}

/** `method (id r1)`, `method (r1)` for a notification about a request, `response (id r1)`, `error: …`. */
function messageSummary(json: string): string | undefined {
  let message: {
    method?: unknown;
    id?: unknown;
    result?: unknown;
    error?: { message?: string };
    params?: { requestId?: unknown };
  };
  try {
    message = JSON.parse(json) as typeof message;
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null) return undefined;
  if (typeof message.method === 'string') {
    const requestId = message.params?.requestId;
    const which = message.id !== undefined ? ` (id ${String(message.id)})` : requestId !== undefined ? ` (${String(requestId)})` : '';
    return `${message.method}${which}`;
  }
  if (message.error !== undefined) return `error: ${message.error?.message ?? ''}`;
  if (message.result !== undefined) return `response (id ${String(message.id)})`;
  return undefined;
}
