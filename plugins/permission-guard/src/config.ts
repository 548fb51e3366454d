/**
 * The config schema. Everything is checked when the plugin is loaded, never per call: the
 * shape by the schema, and every matcher and glob by compiling the policy once. A bad entry fails
 * the load with a message that names it and the fix, e.g.
 * `$.rules[1].when.command has an unknown key "shel": the only key is "shell", as in { shell: "rm *" }`.
 */
import { Schema } from 'cordis'
import { PolicyError } from './matchers.js'
import type { PermissionsConfig } from './permissions.js'
import { compilePolicy, type PermissionGuardConfig, type RuleConfig } from './rules.js'

const Action = Schema.union(['allow', 'deny', 'ask'] as const)

const Rule = Schema.object({
  tool: Schema.string().required().description('Glob over the tool name, e.g. "read_*".'),
  action: Action.required().description('What a matching call gets.'),
  reason: Schema.string().description('Shown when this rule denies or asks.'),
  // Taken as it is (a dict schema would turn null, a Map or a Set into `{}`, and drop a
  // `__proto__` key): compilePolicy checks it and each value, naming the entry and the fix.
  when: Schema.any().description('Argument name -> a glob, or { shell: glob } for a shell command line; all must match.'),
})

const Shape = Schema.object({
  default: Action.default('allow').description('The action when no rule matches.'),
  rules: Schema.array(Rule).default([]).description('Evaluated in order; the last matching rule wins.'),
  // Checked by compilePermissions, which names an unknown key or a bad entry and the fix.
  permissions: Schema.any().description('Claude Code permission rules: { allow?, ask?, deny? }, lists such as "Bash(npm run test:*)".'),
  cwd: Schema.string().description('The folder path rules written ./x or x are relative to (default: the process working directory).'),
})

/** What a user may write: every key is optional, the schema fills in the defaults. */
export interface PermissionGuardInput {
  default?: PermissionGuardConfig['default']
  rules?: RuleConfig[]
  permissions?: PermissionsConfig
  cwd?: string
}

/** The plugin's config schema (cordis validates it at `ctx.plugin(...)`). */
export const Config: Schema<PermissionGuardInput | undefined, PermissionGuardConfig> = Schema.transform(Shape, (config) => {
  const value = config as unknown as PermissionGuardConfig
  try {
    compilePolicy(value)
  } catch (error) {
    if (error instanceof PolicyError) throw new Schema.ValidationError(error.message, { path: error.path })
    throw error
  }
  return value
}, true).default({} as PermissionGuardConfig)
