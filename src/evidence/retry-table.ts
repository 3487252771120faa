import type { LoadedManifest } from '../manifest/load.js';
import { retryClassOf } from '../policy/predicates.js';
import { displayText } from '../text/display-text.js';

/** Every operation's retry classification, with its key and its declared retry and backoff. */
export function retryTable(manifest: LoadedManifest): string {
  const lines = [
    '# Retry table',
    '',
    '| operation | side effect | idempotency key | classification | reason | automatic retry | backoff |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const { spec } of manifest.operations) {
    const key = spec.idempotency?.keyArgument;
    const retry = retryClassOf(spec);
    const backoff = spec.retry?.backoff;
    const shownBackoff =
      backoff === undefined ? '—' : `${backoff.baseMs ?? '?'}–${backoff.capMs ?? '∞'} ms, jitter ${backoff.jitter ?? 'none'}`;
    const cells = [
      spec.name,
      spec.sideEffect ?? 'not declared',
      key ?? '—',
      `**${retry.classification}**`,
      retry.reason,
      spec.retry?.automatic ?? 'not declared',
      shownBackoff,
    ];
    lines.push(`| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  return `${lines.map(displayText).join('\n')}\n`;
}
