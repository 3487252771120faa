import type { Severity } from '../findings/finding.js';
import { SPEC_VERSIONS, type SpecVersion } from '../spec/revisions.js';
import type { JudgeOptions } from './judge-options.js';
import { type JudgeBasis, type JudgedCase, type JudgeHead, type Judgement, judged } from './judgement.js';
import type { SessionIndex } from './session-requests.js';
import type { Party } from './session-transcript.js';

/** The newest revision: where the HTTP rules that 2025-11-25 only allows become requirements (a judge `cites` it). */
export const NEWEST_REVISION = SPEC_VERSIONS[SPEC_VERSIONS.length - 1] as SpecVersion;

/** A judge's messages: an id for each thing it says of a case, and its English with `{{name}}` for each datum. */
export type JudgeMessages = Readonly<Record<string, string>>;

/** The names a message template's `{{placeholders}}` name. */
export type Placeholders<Template extends string> = Template extends `${string}{{${infer Name}}}${infer Rest}`
  ? Name | Placeholders<Rest>
  : never;

/** The data a message needs: one value for each of its placeholders. */
export type MessageData<Template extends string> = { readonly [Name in Placeholders<Template>]: string | number };

/** A case as its judge observed it: the message id and its data (the English is rendered from the declaration). */
export type ObservedCase<Messages extends JudgeMessages = JudgeMessages> = {
  readonly [Id in keyof Messages & string]: {
    readonly status: 'pass' | 'fail';
    readonly messageId: Id;
    readonly data: MessageData<Messages[Id]>;
    /** The trace lines it rests on, the one to point at first. */
    readonly lines: readonly number[];
  };
}[keyof Messages & string];

/** A judgement as its judge made it, each case with its message id and data. */
export type ObservedJudgement<Messages extends JudgeMessages = JudgeMessages> = Judgement<ObservedCase<Messages>>;

/** What a judge's implementation is given besides the session: its head, and a judgement from cases in its messages. */
export interface JudgeContext<Messages extends JudgeMessages> {
  readonly head: JudgeHead;
  judged(cases: readonly ObservedCase<Messages>[], unexercised: string, passed: (count: number) => string): ObservedJudgement<Messages>;
}

/** What a judge declares of itself: the words of its page, its basis, its messages. */
interface JudgeFacts<Id extends string, Messages extends JudgeMessages> {
  readonly id: Id;
  /** The party the rule binds. */
  readonly party: Party;
  readonly description: string;
  readonly rests: JudgeBasis;
  readonly fix: string;
  /** Where the fact's strength on the most deployed revision understates the rule (a MUST on the other), its severity. */
  readonly severity?: Severity;
  /** The revision whose statement of the fact the rule rests on, when not the most deployed one (where the rule is strict). */
  readonly cites?: SpecVersion;
  readonly messages: Messages;
}

/** A judge as written in its file: its facts and the pure function of the session that observes its cases. */
export interface JudgeDefinition<Id extends string, Messages extends JudgeMessages> extends JudgeFacts<Id, Messages> {
  observe(session: SessionIndex, options: JudgeOptions, context: JudgeContext<Messages>): ObservedJudgement<Messages>;
}

/** A judge as the catalog holds it: its facts, what it observes (message ids and data) and its judgement in English. */
export interface JudgeDeclaration<Id extends string = string, Messages extends JudgeMessages = JudgeMessages>
  extends JudgeFacts<Id, Messages> {
  observe(session: SessionIndex, options: JudgeOptions): ObservedJudgement<Messages>;
  judge(session: SessionIndex, options: JudgeOptions): Judgement;
  /** The English of one observed case. */
  render(one: ObservedCase<Messages>): string;
}

/**
 * A template made once into its literal parts and placeholder names (alternating, literals at even places), so that
 * rendering a case is a concatenation: a live session may hold 10⁵ cases, judged about once a second.
 */
function compileTemplate(template: string): readonly string[] {
  return template.split(/\{\{(\w+)\}\}/);
}

function fill(parts: readonly string[], data: Readonly<Record<string, string | number>>): string {
  let text = parts[0] as string;
  for (let index = 1; index < parts.length; index += 2) {
    const name = parts[index] as string;
    const value = data[name];
    text += (value === undefined ? `{{${name}}}` : String(value)) + (parts[index + 1] as string);
  }
  return text;
}

/** A judge declared once: its id, party, basis, fix, page words and messages beside its implementation. */
export function defineJudge<const Id extends string, const Messages extends JudgeMessages>(
  definition: JudgeDefinition<Id, Messages>,
): JudgeDeclaration<Id, Messages> {
  const head: JudgeHead = { judge: definition.id, party: definition.party, rests: definition.rests };
  const compiled = new Map(Object.entries(definition.messages).map(([id, template]) => [id, compileTemplate(template)]));
  const render = (one: ObservedCase<Messages>) =>
    fill(compiled.get(one.messageId) as readonly string[], one.data as Readonly<Record<string, string | number>>);
  const context: JudgeContext<Messages> = {
    head,
    judged: (cases, unexercised, passed) => judged(head, cases, unexercised, passed, render),
  };
  const observe = (session: SessionIndex, options: JudgeOptions) => definition.observe(session, options, context);
  return {
    ...definition,
    observe,
    render,
    judge: (session, options) => {
      const observed = observe(session, options);
      // Spread, so that the judgement keeps its keys' order (the JSON reports print it): only the cases change.
      return {
        ...observed,
        cases: observed.cases.map((one): JudgedCase => ({ status: one.status, message: render(one), lines: one.lines })),
      };
    },
  };
}
