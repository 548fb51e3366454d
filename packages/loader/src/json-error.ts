/**
 * What a `JSON.parse` error says, without the text it quotes: V8 quotes up to ten characters of
 * the source around the error (`Unexpected token 's', ..."guments": sk-live-ab"... is not valid JSON`),
 * which may be the start of a secret that redaction, matching whole values, would not find.
 */
export function jsonErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ' (not valid JSON)')
}
