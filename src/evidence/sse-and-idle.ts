import type { LoadedManifest } from '../manifest/load.js';
import { missingSseHeaders, sseHeaders } from '../reference/recovery.js';
import { displayText } from '../text/display-text.js';

/** The SSE headers against the required ones, keep-alive against the proxy's idle timeout, and each operation's clocks. */
export function sseAndIdle(manifest: LoadedManifest): string {
  const http = manifest.manifest.server.http ?? {};
  const declared = http.sseHeaders ?? {};
  const lines = [
    '# SSE headers and idle policy',
    '',
    '## Headers on every SSE response',
    '',
    '| header | required | declared |',
    '|---|---|---|',
  ];
  const missing = missingSseHeaders(declared);
  for (const [name, value] of Object.entries(sseHeaders())) {
    const found = Object.entries(declared).find(([key]) => key.toLowerCase() === name.toLowerCase());
    const shown = found === undefined ? '❌ missing' : `${found[1]} ${missing.includes(`${name}: ${value}`) ? '❌' : '✅'}`;
    lines.push(`| ${name} | ${value} | ${shown} |`);
  }
  const { keepaliveMs, proxyIdleTimeoutMs } = http;
  const race =
    keepaliveMs === undefined || proxyIdleTimeoutMs === undefined
      ? ''
      : keepaliveMs < proxyIdleTimeoutMs
        ? ' ✅ keep-alive comes first'
        : ' ❌ the proxy closes quiet streams first';
  lines.push(
    '',
    '## Idle policy',
    '',
    `- keep-alive comment (\`:\`) every ${keepaliveMs ?? '— (none)'} ms; proxy idle timeout ${proxyIdleTimeoutMs ?? 'not declared'} ms${race}`,
    "- keep-alive is transport traffic: it never resets an operation's idle timeout",
    '',
    '| operation | idle timeout | maximum | progress resets idle | keep-alive resets idle |',
    '|---|---|---|---|---|',
  );
  for (const { spec } of manifest.operations) {
    const timeouts = spec.timeouts ?? {};
    const cells = [
      spec.name,
      `${timeouts.idleMs ?? '—'} ms`,
      `${timeouts.maxMs ?? '—'} ms`,
      timeouts.resetIdleOnProgress ? 'yes' : 'no',
      timeouts.keepaliveCountsAsActivity ? 'yes ❌' : 'no',
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  return `${lines.map(displayText).join('\n')}\n`;
}
