/**
 * Where a plugin belongs relative to others, as its package declares it, and the warnings a
 * harness gets when its list says otherwise. A package.json may carry
 * `"rein": { "order": { "outside": {...}, "inside": {...} } }`: `outside` names the packages
 * it must be listed before (they then nest inside it on every hook), `inside` those it must be
 * listed after. Each is a list of package names, or names mapped to what goes wrong in the
 * opposite order. Only pairs present in the same harness are checked; nothing is reordered.
 */
import { isPlainObject } from './config.js'

/** One declared neighbour: its package name, and what goes wrong when the order is reversed. */
export interface OrderRule {
  other: string
  consequence: string | undefined
}

/** What a package declares about its place: the packages it nests outside of, and inside of. */
export interface OrderDeclaration {
  outside: OrderRule[]
  inside: OrderRule[]
}

/** A plugin of a harness, in list order, as the order check sees it. */
export interface OrderedPlugin {
  /** Where it is, for the start of a warning: `rein.yaml:9 plugins[3] (@rein/plugin-retry)`. */
  where: string
  /** How another warning names it: `plugins[3] (@rein/plugin-retry)`. */
  label: string
  /** Its package name. */
  package: string
  declaration: OrderDeclaration | undefined
}

const SIDES = ['outside', 'inside'] as const

/**
 * Reads `manifest.rein.order`. Undefined when the package declares nothing; a string saying
 * what is wrong when the declaration has the wrong shape.
 */
export function readOrderDeclaration(manifest: unknown): OrderDeclaration | string | undefined {
  const rein = isPlainObject(manifest) ? manifest.rein : undefined
  const order = isPlainObject(rein) ? rein.order : undefined
  if (order === undefined) return undefined
  if (!isPlainObject(order)) return '"rein.order" must be { outside?, inside? }'
  const unknown = Object.keys(order).find((key) => !(SIDES as readonly string[]).includes(key))
  if (unknown !== undefined) return `"rein.order" has the unknown key "${unknown}"; valid keys: outside, inside`
  const declaration: OrderDeclaration = { outside: [], inside: [] }
  for (const side of SIDES) {
    const rules = readRules(order[side])
    if (rules === undefined) {
      return `"rein.order.${side}" must be a list of package names, or { "<package>": "<what goes wrong in the other order>" }`
    }
    declaration[side] = rules
  }
  return declaration
}

function readRules(value: unknown): OrderRule[] | undefined {
  if (value === undefined) return []
  if (Array.isArray(value)) {
    return value.every(isName) ? value.map((other) => ({ other, consequence: undefined })) : undefined
  }
  if (!isPlainObject(value)) return undefined
  const entries = Object.entries(value)
  if (!entries.every(([other, consequence]) => isName(other) && isName(consequence))) return undefined
  return entries.map(([other, consequence]) => ({ other, consequence: consequence as string }))
}

const isName = (value: unknown): value is string => typeof value === 'string' && value.trim() !== ''

/**
 * One warning for each pair listed against a declaration, at the entry listed too early, in list
 * order: `rein.yaml:9 plugins[3] (@rein/plugin-retry) is listed before plugins[4]
 * (@rein/plugin-cache): <consequence>; list @rein/plugin-cache before @rein/plugin-retry`.
 */
export function orderWarnings(plugins: readonly OrderedPlugin[]): string[] {
  const warnings: string[] = []
  plugins.forEach((early, i) => {
    for (const late of plugins.slice(i + 1)) {
      const consequence = misorder(early, late)
      if (consequence === undefined) continue
      warnings.push(`${early.where} is listed before ${late.label}: ${consequence}; list ${late.package} before ${early.package}`)
    }
  })
  return warnings
}

/** What goes wrong with `early` listed before `late`, when either one's declaration says so. */
function misorder(early: OrderedPlugin, late: OrderedPlugin): string | undefined {
  const outside = late.declaration?.outside.find((rule) => rule.other === early.package)
  if (outside) return outside.consequence ?? `${late.package} declares that it belongs outside ${early.package}`
  const inside = early.declaration?.inside.find((rule) => rule.other === late.package)
  if (inside) return inside.consequence ?? `${early.package} declares that it belongs inside ${late.package}`
  return undefined
}
