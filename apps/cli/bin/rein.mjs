#!/usr/bin/env node
// The `rein` command. Build first (npx tsc -b); the code is in src/main.ts.
import { main } from '../dist/src/main.js'
import { processIo } from '../dist/src/io.js'

process.exitCode = await main(process.argv.slice(2), processIo())
