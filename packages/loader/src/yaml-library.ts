/**
 * The `yaml` package, loaded the first time a file is parsed: importing it costs about 60 ms
 * (70 CommonJS files), which a harness built in code (`createHarness`) never needs. It is
 * CommonJS, so `require` is synchronous and parsing stays synchronous. Guarded by the peer
 * bench's `cold.mjs` and `test/yaml-library.test.ts`.
 */
import { createRequire } from 'node:module'

type Yaml = typeof import('yaml')

let loaded: Yaml | undefined

/** The `yaml` module; the first call loads it. */
export function yaml(): Yaml {
  return loaded ??= createRequire(import.meta.url)('yaml') as Yaml
}
