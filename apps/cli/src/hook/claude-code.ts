/**
 * `rein hook claude-code`: one Claude Code `PreToolUse` or `PostToolUse` call, answered from
 * the harness's policy. PreToolUse runs `ctx.tools.decide` (no tool body runs here): allow and
 * ask answer exit 0 with the JSON Claude Code reads, a rewrite as `updatedInput`; a deny, and
 * anything rein cannot judge, exit 2 with the reason on stderr, and is audited at once.
 * PostToolUse hands the call Claude Code ran to the observers (audit, OTel) and exits 0. stdout
 * carries the JSON answer only.
 */
import { failure, TOOL_DENIED, type Decision, type ExecuteOptions, type Json, type ToolCall, type ToolService } from '@rein/kernel'
import type { Harness } from '@rein/loader'
import { reportFailure } from '../failures.js'
import { println, type Io } from '../io.js'
import { BLOCK } from './fail-closed.js'
import { HookInputError, parseHookInput, type HookInput } from './input.js'
import { hostTool, namesOf, pathsForHost, pathsForRules, pathsSetTo } from './tools.js'
import { enterHostDir } from './working-dir.js'

/** How severe a decision is: across the names and spellings of one call, the most severe wins. */
const SEVERITY: Record<Decision['kind'], number> = { allow: 0, ask: 1, invalid: 2, deny: 3 }

/**
 * Answers the hook input `text` with the harness in `configFile` (loaded now, in the input's
 * cwd, and disposed after, unless a `resident` harness loaded in that folder is given);
 * resolves with the exit code.
 */
export async function claudeCodeHook(text: string, configFile: string, io: Io, resident?: Harness): Promise<number> {
  let input: HookInput
  let leave = () => {}
  try {
    input = parseHookInput(text, io.cwd)
    if (!resident) leave = enterHostDir(input.cwd)
  } catch (error) {
    if (!(error instanceof HookInputError)) throw error
    println(io.stderr, `rein hook: ${error.message}`)
    return BLOCK
  }
  try {
    return await answer(input, configFile, io, resident)
  } finally {
    leave()
  }
}

/** The answer to the checked `input`, with the process already in its cwd. */
async function answer(input: HookInput, configFile: string, io: Io, resident: Harness | undefined): Promise<number> {
  let harness = resident
  try {
    harness ??= await loadHookHarness(configFile, io)
  } catch (error) {
    reportFailure(error, io, 'hook')
    println(io.stderr, `rein hook: the config did not load, so ${input.toolName} is refused`)
    return BLOCK
  }
  try {
    if (!resident) for (const warning of harness.warnings) println(io.stderr, `rein hook: warning: ${warning}`)
    const tools = harness.ctx.tools
    for (const name of namesOf(input.toolName)) if (!tools.get(name)) tools.register(hostTool(name))
    const call: ToolCall = { id: input.toolUseId, name: input.toolName, arguments: input.toolInput }
    const options: ExecuteOptions = input.sessionId ? { session: { id: input.sessionId } } : {}
    const { decision, tool } = await decideAll(tools, input, options)
    if (input.event === 'PostToolUse') {
      await tools.observe(call, ranResult(input.toolResponse), { ...options, decision: decision.kind === 'invalid' ? undefined : decision.kind })
      return 0
    }
    switch (decision.kind) {
      case 'allow':
      case 'ask': {
        const reason = decision.kind === 'ask' ? decision.reason ?? `rein's policy asks before ${input.toolName} runs` : `allowed by rein's policy`
        const rewritten = decision.kind === 'allow' && decision.arguments
          ? pathsForHost(tool, decision.arguments, input.cwd) ?? decision.arguments
          : undefined
        println(io.stdout, JSON.stringify({
          hookSpecificOutput: {
            hookEventName: 'PreToolUse', permissionDecision: decision.kind, permissionDecisionReason: reason,
            ...(rewritten ? { updatedInput: rewritten } : {}),
          },
        }))
        return 0
      }
      case 'deny':
        await tools.observe(call, failure(TOOL_DENIED, decision.reason), { ...options, decision: 'deny' })
        println(io.stderr, decision.reason)
        return BLOCK
      case 'invalid':
        await tools.observe(call, failure(decision.code, decision.message), options)
        println(io.stderr, `rein hook: ${input.toolName} refused (${decision.code}): ${decision.message}`)
        return BLOCK
      default:
        return BLOCK
    }
  } finally {
    if (!resident) await harness.dispose()
  }
}

/** The harness of `configFile` as the hook loads it: no provider, no agent. */
export async function loadHookHarness(configFile: string, io: Io): Promise<Harness> {
  const { loadHarness } = await import('@rein/loader')
  const { NO_MODEL } = await import('../commands/chains.js')
  return loadHarness(configFile, { provider: NO_MODEL, env: io.env, inspectOnly: true })
}

/**
 * The decision for the call under each name it goes by and each spelling of its paths: the
 * relative one (`./x` inside cwd) decides, and a deny or ask of the absolute spelling holds
 * too when something about the absolute path gave it (not the default, which the relative
 * spelling had too: a default deny or ask must not undo an allow of `./src/**`). Answers the
 * most severe, and the name whose decision it is.
 */
async function decideAll(tools: ToolService, input: HookInput, options: ExecuteOptions): Promise<{ decision: Decision, tool: string }> {
  let worst: { decision: Decision, tool: string } | undefined
  for (const name of namesOf(input.toolName)) {
    const decide = (args: Record<string, unknown>) => tools.decide({ id: input.toolUseId, name, arguments: args }, options)
    let decision = await decide(pathsForRules(name, input.toolInput, input.cwd) ?? input.toolInput)
    const absolute = pathsForHost(name, input.toolInput, input.cwd)
    if (absolute && decision.kind !== 'deny') {
      const other = await decide(absolute)
      // It holds unless the call gets the same with a path no rule names.
      const byPath = async () => JSON.stringify(other) !== JSON.stringify(await decide(pathsSetTo(name, input.toolInput, NO_PATH)!))
      if (SEVERITY[other.kind] > SEVERITY[decision.kind] && await byPath()) decision = other
    }
    if (!worst || SEVERITY[decision.kind] > SEVERITY[worst.decision.kind]) worst = { decision, tool: name }
  }
  return worst!
}

/** A path no rule names (Claude Code never sends a NUL): what a call gets from the rules that name no path, and the default. */
const NO_PATH = '/\0'

/** What Claude Code reported the tool answered (parsed JSON, so plain data), as the result observers see. */
function ranResult(response: unknown) {
  const value = (response ?? null) as Json
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return { isError: false as const, value, content: [{ type: 'text' as const, text: text || '(no output)' }] }
}
