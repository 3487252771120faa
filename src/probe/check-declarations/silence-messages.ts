/**
 * The messages of a cancellation's silence, shared by the checks that cancel a request of their own (before completion,
 * and on a client timeout, where each is led by which timeout fired): what came after it, or why nothing could.
 */
export const SILENCE_MESSAGES = {
  keptWriting: 'the server kept writing for the cancelled request {{request}} on the response stream of request {{stream}}: {{messages}}',
  sentAfterCancel: 'the server sent {{messages}} after the cancellation',
  answeredCancellation: 'the server answered the cancellation (a notification gets no response): {{answer}}',
  workWentOn: 'the work went on after the cancellation: {{tool}} says {{running}} still running',
  unhealthy: '{{why}}',
  crossed:
    'the response of request {{request}} came {{atMs}} ms after it, crossing the cancellation: ' +
    'the run finished before the cancellation took effect, so nothing was cancelled; give it longer work with --arguments',
  workStopped: 'the work stopped: {{tool}} says none is running after the cancellation, and nothing came for request {{request}}',
  streamClosed:
    'closing the stream is the cancellation on {{revision}} Streamable HTTP, so nothing for request {{request}} can reach the probe on it: ' +
    'whether the work stopped cannot be seen on the wire (name a status tool in the manifest, probe.workStatus, to observe it)',
  streamClosedWitnessed:
    'closing the stream is the cancellation on {{revision}} Streamable HTTP, so nothing for request {{request}} can reach the probe on it: ' +
    'whether the work stopped cannot be seen on the wire (name a status tool in the manifest, probe.workStatus, to observe it)' +
    '; nothing came for it on the stream of request {{witness}} either',
  silent: 'nothing for request {{request}} in the {{watchedMs}} ms after the cancellation; the server still answers',
  quietAnyway:
    'nothing for request {{request}} in the {{watchedMs}} ms after the cancellation, but {{tool}} sent nothing for {{silentMs}} ms ' +
    'uncancelled in {{check}}: its silence shows nothing about the cancellation (not watched a full limit again)',
} as const;

export type SilenceMessageId = keyof typeof SILENCE_MESSAGES;

/** The silence messages each led by `lead` (a template too). */
export function ledBy<const Lead extends string>(
  lead: Lead,
): { readonly [Id in SilenceMessageId]: `${Lead}${(typeof SILENCE_MESSAGES)[Id]}` } {
  return Object.fromEntries(Object.entries(SILENCE_MESSAGES).map(([id, template]) => [id, `${lead}${template}`])) as {
    readonly [Id in SilenceMessageId]: `${Lead}${(typeof SILENCE_MESSAGES)[Id]}`;
  };
}
