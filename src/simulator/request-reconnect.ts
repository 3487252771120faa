/** How the client came back for a request after its stream broke: the id it used, Last-Event-ID, what it refetched. */
export interface RequestReconnect {
  readonly newId: string;
  readonly lastEventId: boolean;
  readonly accepted: boolean;
  readonly refetch: readonly string[];
  /** A listen stream's re-issue: whether it restored the filter, carried a tool name, de-duplicated. */
  readonly listen?: { readonly restoresFilter: boolean; readonly carriesToolName: boolean; readonly dedupeBy: string | null };
}

/**
 * What a dropped subscription's re-issue got wrong against the lesson's recovery (a new id, the filter
 * restored, no tool name, duplicates dropped); empty when nothing. The fixture check and the race row both ask.
 */
export function listenReissueProblems(reconnect: RequestReconnect, request: string): string[] {
  const listen = reconnect.listen;
  return [
    ...(reconnect.newId === request || !reconnect.accepted ? ['it reused the old id'] : []),
    ...(listen?.restoresFilter === true ? [] : ['the filter was not restored']),
    ...(listen?.carriesToolName === true ? ['it carried a tool name'] : []),
    ...(listen === undefined || listen.dedupeBy === null ? ['nothing de-duplicates events seen before the drop'] : []),
  ];
}
