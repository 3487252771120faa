import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A `--require` hook that writes the process's own peak memory (/proc's VmHWM, in KB) to a file when it exits:
 * getrusage's maxRSS starts from the parent's peak at fork, and a test process holds hundreds of MB by then.
 */
export function peakRssHook(dir: string): { readonly hook: string; readonly peakMb: () => number } {
  const hook = join(dir, `rss-${Math.random().toString(36).slice(2)}.cjs`);
  const report = `${hook}.txt`;
  writeFileSync(
    hook,
    "process.on('exit',()=>{const fs=require('node:fs');let kb;try{kb=/VmHWM:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status','utf8'))[1]}" +
      `catch{kb=process.resourceUsage().maxRSS}fs.writeFileSync(${JSON.stringify(report)},String(kb))})\n`,
  );
  return { hook, peakMb: () => Number(readFileSync(report, 'utf8')) / 1024 };
}
