import { plural } from '../text/plural.js';

/**
 * The names of a message template's arguments: `{{name}}` is replaced by the argument, `{{name|noun}}` by the count
 * and its noun, agreed (`plural`).
 */
export type Placeholders<Template extends string> = Template extends `${string}{{${infer Name}}}${infer Rest}`
  ? (Name extends `${infer Count}|${string}` ? Count : Name) | Placeholders<Rest>
  : never;

/** The arguments a template takes. */
export type MessageData<Template extends string> = { readonly [Name in Placeholders<Template>]: string | number };

/** A summary by its message id and arguments, with its words. */
export interface CheckMessage {
  readonly messageId: string;
  readonly data: Readonly<Record<string, string | number>>;
  readonly text: string;
}

/** The words of a template with its arguments. */
export function formatMessage(template: string, data: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{(\w+)(?:\|([^}]+))?\}\}/g, (_placeholder, name: string, noun: string | undefined) => {
    const value = data[name];
    if (value === undefined) throw new Error(`the message "${template}" has no argument ${name}`);
    return noun === undefined ? String(value) : plural(Number(value), noun);
  });
}

/** The message maker of one check: its message ids and their arguments, checked against its declaration. */
export function messagesOf<const Messages extends Readonly<Record<string, string>>>(declaration: { readonly messages: Messages }) {
  return <Id extends keyof Messages & string>(messageId: Id, data: MessageData<Messages[Id]>): CheckMessage => ({
    messageId,
    data,
    text: formatMessage(declaration.messages[messageId] as string, data),
  });
}
