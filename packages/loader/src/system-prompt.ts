/**
 * The agent's system prompt: `agent.system`, then the few-shot examples rendered from the
 * example files (`example-render.ts`). It is built only from examples that pass the same
 * check as `rein check` against the harness's own tools: if any example (in a file or inline
 * in `agent.system`) does not, no agent is built and every problem is thrown at once, so a
 * model is never taught a call its tools would reject.
 */
import type { Context } from 'cordis'
import { ConfigError, ConfigErrors, LoaderCodes } from './errors.js'
import { composeSystem } from './example-render.js'
import { examinePrompt, NO_PROMPT_SOURCES, type PromptSources } from './examples.js'
import { findInlineExamples } from './inline-examples.js'

/**
 * The system prompt for `createAgent`, or undefined when there is none. Throws `ConfigErrors`
 * (one line per problem, as `rein check` prints them) when an example does not fit its tool.
 */
export function systemPrompt(ctx: Context, system: string | undefined, sources: PromptSources = NO_PROMPT_SOURCES): string | undefined {
  const inline = system === undefined ? undefined : findInlineExamples(system)
  const nothingToCheck = sources.files.length === 0 && sources.problems.length === 0
    && (inline === undefined || inline.examples.length + inline.problems.length === 0)
  if (nothingToCheck) return system
  const examination = examinePrompt(ctx, sources, system)
  if (examination.problems.length > 0) {
    throw new ConfigErrors(examination.problems.map((p) =>
      new ConfigError(LoaderCodes.CONFIG_INVALID, { file: p.file, line: p.line, entry: [p.label, p.tool].filter(Boolean).join(' ') || undefined }, p.detail)))
  }
  return composeSystem(system, examination.render())
}
