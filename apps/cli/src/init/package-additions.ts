/**
 * What `rein init` needs in the package.json of an existing project: a few `rein:` scripts and
 * the rein packages, added only where the project has nothing of that name (a dependency the
 * project already lists, at any version and in any section, is left alone). The file is
 * rewritten only on request, keeping its indentation, line endings, key order and final newline.
 */

/** The scripts and dependencies to add, by section. */
export interface Additions {
  scripts: Record<string, string>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
}

const SECTIONS = ['scripts', 'dependencies', 'devDependencies'] as const
const DEPENDENCY_SECTIONS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']

/** `wanted` minus what `manifest` already has (scripts by name, packages in any dependency section). */
export function missingFrom(manifest: Record<string, unknown>, wanted: Additions): Additions {
  const has = (section: string, key: string) => {
    const value = manifest[section]
    return typeof value === 'object' && value !== null && Object.hasOwn(value, key)
  }
  const keep = (entries: Record<string, string>, present: (key: string) => boolean) =>
    Object.fromEntries(Object.entries(entries).filter(([key]) => !present(key)))
  return {
    scripts: keep(wanted.scripts, (key) => has('scripts', key)),
    dependencies: keep(wanted.dependencies, (key) => DEPENDENCY_SECTIONS.some((section) => has(section, key))),
    devDependencies: keep(wanted.devDependencies, (key) => DEPENDENCY_SECTIONS.some((section) => has(section, key))),
  }
}

/** Whether there is anything to add. */
export function isEmpty(additions: Additions): boolean {
  return SECTIONS.every((section) => Object.keys(additions[section]).length === 0)
}

/** Reads a package.json text; throws a sentence naming `file` when it is not a JSON object. */
export function readManifest(text: string, file: string): Record<string, unknown> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new Error(`${file} is not valid JSON (${(error as Error).message}); fix it, then run rein init again`)
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`${file} does not hold a JSON object`)
  return parsed as Record<string, unknown>
}

/**
 * `text` with `additions` appended to their sections (a missing section is added at the end),
 * in the file's own indentation and line endings, with its final newline kept or left out as it was.
 */
export function withAdditions(text: string, additions: Additions): string {
  const manifest = readManifest(text, 'package.json')
  for (const section of SECTIONS) {
    const entries = Object.entries(additions[section])
    if (entries.length === 0) continue
    const current = manifest[section]
    const target = typeof current === 'object' && current !== null && !Array.isArray(current) ? current as Record<string, unknown> : {}
    for (const [key, value] of entries) target[key] = value
    manifest[section] = target
  }
  const indent = /^[{[][ \t]*\r?\n([ \t]+)\S/.exec(text)?.[1] ?? '  '
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const body = JSON.stringify(manifest, null, indent).split('\n').join(eol)
  return /\r?\n$/.test(text) ? body + eol : body
}

/** The additions as lines a person can paste, one section each. */
export function describeAdditions(additions: Additions): string[] {
  return SECTIONS.filter((section) => Object.keys(additions[section]).length > 0)
    .map((section) => `  "${section}": ${JSON.stringify(additions[section], null, 1).replace(/\n\s*/g, ' ')}`)
}
