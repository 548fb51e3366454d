#!/usr/bin/env node
// The `rein` command. Build first (npx -y pnpm@10 build); the code is in src/entry.ts and src/main.ts.
// On Node >= 22.1 the modules below are compiled once and then read back from V8's code cache
// (os.tmpdir()/node-compile-cache, or $NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it
// off). Node 20 has no such API and simply compiles them each time. The imports are dynamic so
// that they come after the cache is on.
import module from 'node:module'

module.enableCompileCache?.()
const { rein } = await import('../dist/src/entry.js')
const { processIo } = await import('../dist/src/io.js')

process.exitCode = await rein(process.argv.slice(2), processIo())
