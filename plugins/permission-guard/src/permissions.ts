/**
 * `permissions: { allow, ask, deny }`: Claude Code's permission rules (`Bash(npm run test:*)`,
 * `Read(./.env)`, `WebFetch(domain:example.com)`, `mcp__server__tool`), compiled once at load and
 * evaluated per call. A deny or ask entry matches when any command of a shell line matches (or
 * the line cannot be known); an allow needs every command allowed, each possibly by a different
 * entry. The verdict is deny if any deny entry matches, else ask if any ask entry does, else
 * allow if the allow entries cover the call, else none (the rules and `default` decide).
 */
import { homedir } from 'node:os'
import { posix } from 'node:path'
import { compileGlob } from '@rein/shell-reader'
import { describeValue, isPlainObject, PolicyError, testMatcher, type Match, type Matcher, type ShellReader } from './matchers.js'
import type { Action, Args } from './rule.js'
import type { Verdict } from './verdict.js'

/** `permissions` as written: lists of Claude Code permission rules. */
export interface PermissionsConfig {
  allow?: string[]
  ask?: string[]
  deny?: string[]
}

/** What the permissions decide for one call: a verdict with its reason, or nothing (no entry matched). */
export type PermissionVerdict = { action: 'allow' } | { action: 'deny', reason: string } | { action: 'ask', reason: string }

/** Compiled permissions: the verdict for a call, and what holds whatever the arguments. */
export interface Permissions {
  (name: string, args: Args): PermissionVerdict | undefined
  /** The reason when a deny entry without a specifier names the tool (every call is denied). */
  unconditionalDeny(name: string): string | undefined
  /** Whether any entry names the tool. */
  names(name: string): boolean
}

interface Entry {
  text: string
  where: string
  action: Action
  tools: (name: string) => boolean
  /** The shell matcher of a `Bash(...)` entry (tested command by command for an allow). */
  shell?: Matcher
  /** Whether the entry matches the call; a missing test means every call of its tools. */
  test?: (args: Args, permissive: boolean) => Match
}

/** Claude Code's tool name -> the names it covers (Claude Code's own and rein's). */
const COVERS: Record<string, string[]> = {
  Bash: ['Bash', 'bash'],
  Read: ['Read', 'Glob', 'Grep', 'read_file', 'grep', 'glob', 'list_dir'],
  Edit: ['Edit', 'MultiEdit', 'NotebookEdit', 'Write', 'edit_file', 'write_file'],
  Write: ['Write', 'write_file'],
  Glob: ['Glob', 'glob'],
  Grep: ['Grep', 'grep'],
  MultiEdit: ['MultiEdit'],
  NotebookEdit: ['NotebookEdit'],
  WebFetch: ['WebFetch'],
}
const PATH_TOOLS = new Set(['Read', 'Edit', 'Write', 'Glob', 'Grep', 'MultiEdit', 'NotebookEdit'])
const ENTRY = /^([A-Za-z][A-Za-z0-9_-]*)(?:\(([\s\S]*)\))?$/
const NO = { matched: false } as const
const YES = { matched: true } as const
const ACTIONS = ['deny', 'ask', 'allow'] as const

/** Compiles `permissions`; a malformed entry is a `PolicyError` naming it and the fix. Paths are relative to `cwd`. */
export function compilePermissions(config: unknown, cwd: string, read: ShellReader): Permissions {
  const lists = checkShape(config)
  const entries = ACTIONS.flatMap((action) => (lists[action] ?? []).map((text, index) => compileEntry(text, action, index, cwd, read)))
  const of = (action: Action, name: string) => entries.filter((entry) => entry.action === action && entry.tools(name))
  const permissions = (name: string, args: Args): PermissionVerdict | undefined => {
    if (entries.length === 0) return undefined // no lists to filter per call
    for (const action of ['deny', 'ask'] as const) {
      for (const entry of of(action, name)) {
        const match: Match = entry.test ? entry.test(args, false) : YES
        if (!match.matched) continue
        const text = `tool "${name}" ${action === 'deny' ? 'is denied' : 'needs approval'} by ${entry.where} (${JSON.stringify(entry.text)})`
        return { action, reason: match.note ? `${text}: ${match.note}` : text }
      }
    }
    return allowed(of('allow', name), args, read) ? { action: 'allow' } : undefined
  }
  return Object.assign(permissions, {
    unconditionalDeny: (name: string) => {
      const entry = of('deny', name).find((candidate) => candidate.test === undefined)
      return entry && `tool "${name}" is denied by ${entry.where} (${JSON.stringify(entry.text)})`
    },
    names: (name: string) => entries.some((entry) => entry.tools(name)),
  })
}

const SEVERITY: Record<Action, number> = { allow: 0, ask: 1, deny: 2 }

/**
 * The one verdict of `rules` and `permissions`: the most severe (deny > ask > allow); the rules'
 * verdict when no entry matched, the entries' when no rule matched (`rulesMatched` false: the
 * rules' verdict is only the default). Returns whether the permissions decided.
 */
export function combine(rules: Verdict, rulesMatched: boolean, permission: PermissionVerdict | undefined): { verdict: Verdict, byPermissions: boolean } {
  if (permission === undefined) return { verdict: rules, byPermissions: false }
  if (!rulesMatched || SEVERITY[permission.action] > SEVERITY[rules.action]) return { verdict: permission, byPermissions: true }
  return { verdict: rules, byPermissions: false }
}

/** `permissions` must be an object with only `allow`, `ask` and `deny`, each a list. */
function checkShape(config: unknown): PermissionsConfig {
  if (config === undefined) return {}
  if (!isPlainObject(config)) throw new PolicyError(['permissions'], `must be an object such as { deny: ["Bash(rm:*)"] }; got ${describeValue(config)}`)
  for (const [key, list] of Object.entries(config)) {
    if (!(ACTIONS as readonly string[]).includes(key)) {
      throw new PolicyError(['permissions'], `has an unknown key ${JSON.stringify(key)}: the keys are "allow", "ask" and "deny", each a list such as ["Bash(git status)"]`)
    }
    if (!Array.isArray(list)) throw new PolicyError(['permissions', key], `must be a list of permission rules such as ["Bash(git status)"]; got ${describeValue(list)}`)
  }
  return config as PermissionsConfig
}

/**
 * Whether the allow entries cover a call: one entry matches it whole, or (for a shell line) the
 * line is readable, names every command, writes no file, assigns nothing, and each of its
 * commands is allowed by some `Bash(...)` entry.
 */
function allowed(entries: Entry[], args: Args, read: ShellReader): boolean {
  if (entries.some((entry) => !entry.shell && (entry.test ? entry.test(args, true).matched : true))) return true
  const shells = entries.flatMap((entry) => (entry.shell ? [entry.shell] : []))
  const command = args.command
  if (shells.length === 0 || typeof command !== 'string') return false
  const line = read(command)
  if (line.texts.length === 0) return false
  return line.texts.every((_, focus) => shells.some((shell) => testMatcher(shell, command, true, read, focus).matched))
}

function compileEntry(text: unknown, action: Action, index: number, cwd: string, read: ShellReader): Entry {
  const path = ['permissions', action, index]
  const where = `permissions.${action}[${index}]`
  if (typeof text !== 'string') throw new PolicyError(path, `must be a permission rule string such as "Bash(npm run test:*)"; got ${JSON.stringify(text)}`)
  const parsed = ENTRY.exec(text)
  if (parsed === null) {
    throw new PolicyError(path, `${JSON.stringify(text)} is not a permission rule: write Tool or Tool(specifier), as in "Bash(git status)", "Read(./.env)" or "mcp__server__tool"`)
  }
  const [, tool, spec] = parsed
  const base = { text, where, action }
  if (tool.startsWith('mcp__')) {
    if (spec !== undefined) throw new PolicyError(path, `${JSON.stringify(text)}: an MCP tool takes no specifier; write "${tool}"`)
    return { ...base, tools: mcpNames(tool) }
  }
  const covers = COVERS[tool] ?? [tool]
  const tools = (name: string) => covers.includes(name)
  if (spec === undefined || spec === '*') return { ...base, tools }
  if (spec === '') throw new PolicyError(path, `${JSON.stringify(text)} has an empty specifier: write "${tool}" for every call, or put what it is about in the parentheses`)
  if (tool === 'Bash') {
    const shell: Matcher = { kind: 'shell', glob: compileGlob(commandGlob(spec, path, text)) }
    return { ...base, tools, shell, test: (args, permissive) => testMatcher(shell, args.command, permissive, read) }
  }
  if (PATH_TOOLS.has(tool)) return { ...base, tools, test: pathTest(spec, cwd, path, text) }
  if (tool === 'WebFetch') return { ...base, tools, test: domainTest(spec, path, text) }
  throw new PolicyError(path, `${JSON.stringify(text)}: only Bash, Read, Edit, Write, Glob, Grep, MultiEdit, NotebookEdit and WebFetch take a specifier; write "${tool}" for every call of it`)
}

/** `mcp__s__t` names `mcp__s__t` and rein's `s__t`; `mcp__s` (or `mcp__s__*`) every tool of server `s`. */
function mcpNames(tool: string): (name: string) => boolean {
  const rest = tool.slice('mcp__'.length).replace(/__\*$/, '')
  if (rest.includes('__')) return (name) => name === tool || name === rest
  return (name) => name.startsWith(`mcp__${rest}__`) || name.startsWith(`${rest}__`)
}

/** `npm run test:*` -> the glob `npm run test{, *}` (the prefix as whole words); `git status` -> itself; `*` stays a wildcard. */
function commandGlob(spec: string, path: (string | number)[], text: string): string {
  const prefix = spec.endsWith(':*')
  const body = (prefix ? spec.slice(0, -2) : spec).trim()
  if (body === '') throw new PolicyError(path, `${JSON.stringify(text)} names no command: write it before ":*", as in "Bash(npm run test:*)"`)
  const escaped = body.replace(/[?[\]{}\\]/g, (char) => `\\${char}`)
  return prefix ? `${escaped}{, *}` : escaped
}

/**
 * A gitignore-style path rule: `*` one segment, `**` any depth, `//abs`, `~/x`, `./x` and `x`
 * relative to `cwd`; a pattern also covers what is below what it names. The call's path
 * (`file_path`, `notebook_path` or `path`; `cwd` when absent) is resolved and normalised first.
 */
function pathTest(spec: string, cwd: string, path: (string | number)[], text: string): (args: Args, permissive: boolean) => Match {
  if (spec.startsWith('/') && !spec.startsWith('//')) {
    throw new PolicyError(path, `${JSON.stringify(text)}: write "//${spec.slice(1)}" for an absolute path, or ".${spec}" for one relative to the working directory`)
  }
  const pattern = new RegExp(`^${posix.normalize(absolute(spec, cwd)).split('/').filter(Boolean).map(segment).join('')}(?:/.*)?$`, 's')
  return (args, permissive) => {
    const value = args.file_path ?? args.notebook_path ?? args.path ?? cwd
    if (typeof value !== 'string') return permissive ? NO : { matched: true, note: 'the path is not a string, so it counts as matching' }
    return pattern.test(posix.resolve(cwd, absolute(value, cwd))) ? YES : NO
  }
}

function absolute(value: string, cwd: string): string {
  if (value.startsWith('//')) return value.slice(1)
  if (value === '~' || value.startsWith('~/')) return homedir() + value.slice(1)
  return posix.resolve(cwd, value)
}

/** `example.com.` as `example.com`: the fully qualified spelling of the same host. */
const withoutRootDot = (host: string) => host.replace(/\.$/, '')

function segment(text: string): string {
  if (text === '**') return '(?:/.*)?'
  return `/${text.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}`
}

/**
 * `domain:example.com`: the call's `url` has exactly that host (a trailing dot, the same host
 * to DNS and TLS, is left out on both sides); a URL that cannot be read counts for a deny or ask.
 */
function domainTest(spec: string, path: (string | number)[], text: string): (args: Args, permissive: boolean) => Match {
  if (!spec.startsWith('domain:') || spec.length === 'domain:'.length) {
    throw new PolicyError(path, `${JSON.stringify(text)}: WebFetch takes "domain:<host>", as in "WebFetch(domain:example.com)"`)
  }
  const domain = withoutRootDot(spec.slice('domain:'.length).toLowerCase())
  return (args, permissive) => {
    let host: string | undefined
    try {
      host = typeof args.url === 'string' ? withoutRootDot(new URL(args.url).hostname.toLowerCase()) : undefined
    } catch { /* unreadable: decided below */ }
    if (host === undefined) return permissive ? NO : { matched: true, note: 'the URL cannot be read, so it counts as matching' }
    return host === domain ? YES : NO
  }
}
