import { tools as toolsCheck } from '../check-declarations/tools.js';
import { messagesOf } from '../check-message.js';
import type { ListedTool } from '../probe-plan.js';
import { type CheckOutcome, judged } from '../probe-types.js';

const message = messagesOf(toolsCheck);

/** What tools/list recorded: the tools with a name, or why none were listed (no answer, or an error). */
export type ToolsListing = { readonly tools: readonly ListedTool[] } | { readonly unanswered: string } | { readonly error: unknown };

/** Judges tools/list: answered with the tools (any number of them). Pure. */
export function judgeToolsList(listing: ToolsListing): CheckOutcome {
  if ('unanswered' in listing) return judged('fail', message('unanswered', { why: listing.unanswered }));
  if ('error' in listing) return judged('fail', message('refused', { error: JSON.stringify(listing.error) }));
  return judged('pass', message('listed', { count: listing.tools.length }), [listing.tools.map((tool) => tool.name).join(', ')]);
}
