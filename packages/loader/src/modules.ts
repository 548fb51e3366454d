/**
 * Imports a resolved module and finds what an entry needs in it: a cordis plugin, or a
 * provider factory. Local `.ts`/`.js` files go through `tsx` (`local-import.ts`, once per
 * content), so a TypeScript plugin runs on plain Node 20 without a build step and a `.js` one
 * may use either module syntax; `.mjs`/`.cjs` files and packages are imported natively.
 * Failures are `ValueProblem`s saying what the module must export.
 */
import { extname } from 'node:path'
import { pathToFileURL } from 'node:url'
import { LoaderCodes, ValueProblem } from './errors.js'
import { importLocal, type ModuleNamespace } from './local-import.js'
import type { ResolvedModule } from './resolve.js'

export type { ModuleNamespace }

/** What cordis accepts as a plugin: an object with `apply`, a function, or a class. */
export type PluginModule = ((...args: any[]) => unknown) | { apply: (...args: any[]) => unknown, [key: string]: unknown }

/** Extensions whose module type is unambiguous, imported without tsx. */
const NATIVE_EXTENSIONS = ['.mjs', '.cjs']

/** Imports `module`. Throws `ValueProblem` when the import itself fails (syntax error, missing dependency). */
export async function importModule(module: ResolvedModule): Promise<ModuleNamespace> {
  try {
    if (module.origin === 'local' && !NATIVE_EXTENSIONS.includes(extname(module.file))) return await importLocal(module.file)
    return await import(pathToFileURL(module.file).href) as ModuleNamespace
  } catch (error) {
    throw new ValueProblem(LoaderCodes.MODULE_LOAD_FAILED, [], `failed to import ${module.file}: ${firstLine(error)}`)
  }
}

/**
 * The plugin a module exports: the module itself when it has `apply` (or is a function), else
 * its default export. `what` names the thing in the error: an imported module, or a value given in code.
 */
export function pluginOf(namespace: unknown, what: 'module' | 'value' = 'module'): PluginModule {
  for (const candidate of defaults(namespace)) {
    if (typeof candidate === 'function') return candidate as PluginModule
    if (isObject(candidate) && typeof candidate.apply === 'function') return candidate as PluginModule
  }
  throw new ValueProblem(LoaderCodes.NOT_A_PLUGIN, [],
    `this ${what} is not a cordis plugin: a plugin exports apply(ctx, config) — with name, inject: ['tools'] and ` +
    'optionally a Config schema — as named exports or as its default export, or default-exports a function or a class' +
    foundExports(namespace))
}

/** The provider factory a module exports (`createProvider`, named or on the default export). */
export function providerFactoryOf(namespace: ModuleNamespace): (config: unknown) => unknown {
  for (const candidate of defaults(namespace)) {
    if (isObject(candidate) && typeof candidate.createProvider === 'function') {
      return candidate.createProvider as (config: unknown) => unknown
    }
  }
  throw new ValueProblem(LoaderCodes.PROVIDER_INVALID, [],
    'this module is not a provider: a provider module exports createProvider(config) returning { generate(req) }' + foundExports(namespace))
}

/** The module, its default export, and the default of that (CommonJS through ESM nests one more level). */
function defaults(namespace: unknown): unknown[] {
  if (!isObject(namespace)) return []
  const first = namespace.default
  const second = isObject(first) ? first.default : undefined
  return [namespace, first, second].filter((value) => value !== undefined)
}

function foundExports(namespace: unknown): string {
  if (!isObject(namespace)) return `; it is ${namespace === null ? 'null' : typeof namespace}`
  const names = Object.keys(namespace)
  return names.length ? `; it exports: ${names.join(', ')}` : '; it exports nothing'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return (value !== null && typeof value === 'object') || typeof value === 'function'
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split('\n')[0] ?? text
}
