import type { Finding } from '../findings/finding.js';
import type { ChecklistLine, Mark } from './review-types.js';

const MARK_OF = { error: 'fail', warn: 'warn', info: 'note' } as const;
const RANK: Record<Mark, number> = { ok: 0, note: 1, warn: 2, fail: 3 };

/**
 * Marks checklist lines with the lint findings of one operation: a line names the rules that judge it, and
 * takes the mark of the worst live finding among them (a suppressed finding leaves it ok, with the reason).
 * The text of the line is written from the policy by the section; the mark is never decided twice.
 */
export class Checklist {
  constructor(private readonly findings: readonly Finding[]) {}

  line(text: string, rules: readonly string[]): ChecklistLine {
    const about = this.findings.filter((finding) => rules.includes(finding.ruleId));
    const live = about.filter((finding) => finding.suppression === undefined);
    if (live.length === 0) {
      const suppressed = about[0]?.suppression;
      return { mark: 'ok', text, rules, ...(suppressed === undefined ? {} : { because: `suppressed: ${suppressed.justification}` }) };
    }
    const worst = live.reduce((a, b) => (RANK[MARK_OF[b.severity]] > RANK[MARK_OF[a.severity]] ? b : a));
    return { mark: MARK_OF[worst.severity], text, rules, because: `${worst.ruleId}: ${worst.message}` };
  }
}
