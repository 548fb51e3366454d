/**
 * `@rein/kernel`: the one tool-call pipeline, as a cordis plugin that provides `ctx.tools`.
 *
 *   const ctx = new Context(); ctx.plugin(kernel); await ctx.start()
 *   ctx.tools.register(defineTool({ ... })); await ctx.tools.execute(call, { signal })
 */
import type { Context } from 'cordis'
import { ToolService } from './service.js'
import type { KernelConfig } from './config.js'

/** The cordis plugin name. */
export const name = 'tools'

/** Provides `ctx.tools`. */
export function apply(ctx: Context, config?: KernelConfig) {
  ctx.plugin(ToolService, config)
}

export { Config, DEFAULT_ABANDON_AFTER_MS, type KernelConfig } from './config.js'
export * from './codes.js'
// The data of a call and the Provider vocabulary live in the types-only `@rein/types`.
export type {
  Json, ContentBlock, ToolCall, ToolError, ToolSuccess, ToolFailure, ToolExecutionResult, PreToolDecision, PostToolDecision,
  ProgressInfo, ToolExec, SessionRef, SessionState, ExecuteOptions, StageCallbacks, ExecutionMode,
  ToolSpec, SystemMessage, UserMessage, AssistantMessage, ToolMessage, Message, GenerateRequest, StreamEvent, Provider,
} from '@rein/types'
export type { PreExecuteHandler, ExecuteHandler, PostExecuteHandler, ResultObserver, HandOffHandler, OnionHooks, HookName, Stage } from './hooks.js'
export { HOOKS, type HookRule } from './hooks.js'
export { defineTool, renderValue, type ToolDefinition, type JsonSchema, type ReconcileInput, type ReconcileAnswer } from './define-tool.js'
export { idempotencyKeyOf } from './exec.js'
export type { ToolService } from './service.js'
export type { Guard } from './pipeline.js'
export type { ApprovalAnswer, ApprovalPrompt, ApprovalReply, ApprovalRequest, ApprovalService, RecordedApproval, SessionApprovals } from '@rein/types'
export { ToolDefinitionError } from './registry.js'
export { CodedError } from './coded-error.js'
export { failure, codeOf, isContent, isContentBlock, finalizeContent, ABANDONED_NAMES, bodyMayStillRun, knownDecision } from './results.js'
export { MAX_TIMER_MS } from './timers.js'
export { deepFreeze, snapshot, MAX_ARGUMENT_DEPTH } from './json.js'
export { readArguments } from './arguments.js'
export { isStandardSchema, type SchemaCompile, type Validator, type StandardSchema, type StandardResult, type StandardOutput } from '@rein/schema'
export { startupProblemOf, startupProblems, missingServicesOf, type StartupProblem } from './startup.js'
export { messageOf } from './hostile.js'
export type { Decision, ObserveOptions } from './decide.js'
