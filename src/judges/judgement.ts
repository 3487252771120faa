import type { CheckStatus } from '../live/outcome.js';
import type { FactId } from '../spec/revision-facts.js';
import type { JudgeOptions } from './judge-options.js';
import type { SessionIndex } from './session-requests.js';
import type { Party } from './session-transcript.js';

export type JudgeBasis = { readonly fact: FactId } | { readonly lesson: string; readonly says: string };

/** One thing a judge saw, as reports show it: a message that broke the rule, or one that was checked and held. */
export interface JudgedCase {
  readonly status: 'pass' | 'fail';
  /** The case's English, rendered from its judge's message template (`messageId`) and data. */
  readonly message: string;
  /** The trace lines it rests on, the one to point at first. */
  readonly lines: readonly number[];
}

/**
 * What a judge made of a session: `fail` when a case broke its rule, `pass` only when it saw at least one case it
 * could judge and every one held; `inconclusive` when the session never exercised it (the summary says what would);
 * `not-observable` when the transport or revision hides it. `Case` is a reported case (rendered English) or, as the
 * judge observed it, one with its message id and data (`ObservedCase`).
 */
export interface Judgement<Case = JudgedCase> {
  readonly judge: string;
  /** The party the rule binds. */
  readonly party: Party;
  readonly status: CheckStatus;
  readonly summary: string;
  /** What the judge rests on: a revision fact, or a section of the reliability lesson (named in words). */
  readonly rests: JudgeBasis;
  readonly cases: readonly Case[];
}

/** What a judgement says of itself before it looks at cases: its judge, the party bound and the basis. */
export type JudgeHead = Pick<Judgement, 'judge' | 'party' | 'rests'>;

/**
 * A judgement from its cases: fail if one failed (the summary is the first failure's English, `messageOf`), pass if
 * one was judged, else inconclusive with `unexercised`.
 */
export function judged<Case extends { readonly status: 'pass' | 'fail' }>(
  base: JudgeHead,
  cases: readonly Case[],
  unexercised: string,
  passed: (count: number) => string,
  messageOf: (one: Case) => string,
): Judgement<Case> {
  const failed = cases.filter((one) => one.status === 'fail');
  if (failed.length > 0)
    return {
      ...base,
      status: 'fail',
      summary: failed.length === 1 ? messageOf(failed[0] as Case) : `${failed.length} cases: ${messageOf(failed[0] as Case)}; …`,
      cases,
    };
  if (cases.length > 0) return { ...base, status: 'pass', summary: passed(cases.length), cases };
  return { ...base, status: 'inconclusive', summary: unexercised, cases };
}

/** A judge: a pure function of the session read as requests, and of what it is measured against. */
export type Judge = (session: SessionIndex, options: JudgeOptions) => Judgement;
