import type { TranscriptEntry } from '../simulator/transcript.js';

/** A transcript as a mermaid sequence diagram, which GitHub renders in markdown. */
export function sequenceDiagram(entries: readonly TranscriptEntry[]): string {
  const lines = ['sequenceDiagram', '    participant C as Client', '    participant S as Server'];
  for (const entry of entries) {
    const text = label(entry.text);
    if (entry.lane === 'client → server') lines.push(`    C->>S: ${text}`);
    else if (entry.lane === 'server → client') lines.push(`    S-->>C: ${text}`);
    else lines.push(`    Note over ${entry.lane === 'client' ? 'C' : entry.lane === 'proxy' ? 'C,S' : 'S'}: ${text}`);
  }
  return lines.join('\n');
}

/** A short label: the JSON-RPC method and id of a message, or the sentence, made safe for mermaid. */
function label(text: string): string {
  const json = text.startsWith('POST ') ? text.slice(5) : text;
  let short = text;
  // Only a JSON-RPC message is summarised; notes are shown as written (parsing them would throw, slowly, for each).
  if (json.startsWith('{'))
    try {
      const message = JSON.parse(json) as {
        method?: string;
        id?: unknown;
        result?: unknown;
        error?: { message?: string };
        params?: { requestId?: unknown };
      };
      const prefix = text.startsWith('POST ') ? 'POST ' : '';
      if (message.method !== undefined) {
        const requestId = message.params?.requestId;
        const which = message.id !== undefined ? ` (id ${String(message.id)})` : requestId !== undefined ? ` (${String(requestId)})` : '';
        short = `${prefix}${message.method}${which}`;
      } else if (message.error !== undefined) short = `error: ${message.error.message ?? ''}`;
      else if (message.result !== undefined) short = `response (id ${String(message.id)})`;
    } catch {
      // not JSON: a sentence
    }
  return short.replace(/[;#]/g, ',').replace(/"/g, "'").replace(/[<>]/g, '').slice(0, 90);
}
