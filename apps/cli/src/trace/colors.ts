/**
 * One colour per outcome, the same on every page: success green, denials amber, timeouts
 * purple, aborts grey, other failures in reds; a code not listed gets a stable colour from
 * its name, so a tool's own codes are still told apart.
 */

const KNOWN: Record<string, string> = {
  'ok': '#2f9e44',
  'TOOL_DENIED': '#f08c00',
  'TOOL_BLOCKED': '#e8590c',
  'TOOL_TIMEOUT': '#862e9c',
  'ABORTED': '#868e96',
  'ABORTED_BEFORE_DISPATCH': '#adb5bd',
  'TOOL_NOT_STARTED': '#ced4da',
  'TOOL_OUTCOME_UNKNOWN': '#495057',
  'TOOL_FAILED': '#e03131',
  'INVALID_ARGS': '#c2255c',
  'UNKNOWN_TOOL': '#a61e4d',
  'INVALID_TOOL_OUTPUT': '#d6336c',
  'RENDER_FAILED': '#d6336c',
  'PIPELINE_FAILED': '#5f3dc4',
  'DEPENDENCY_FAILED': '#f783ac',
  'INVALID_PLAN': '#f06595',
  'no result': '#ffffff',
}

/** The fill colour of a bar with this outcome. */
export function colorOf(outcome: string): string {
  const known = KNOWN[outcome]
  if (known) return known
  let hash = 0
  for (const ch of outcome) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0
  return `hsl(${hash % 360}, 55%, 45%)`
}
