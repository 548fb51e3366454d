// @ts-check
/**
 * The entry of a sandbox thread. It loads QuickJS's WebAssembly module once (shipped inside
 * the npm package, never downloaded) into a linear memory capped at the memory limit, says
 * `ready`, then takes one run at a time from the host. `workerData.stop` is a SharedArrayBuffer the host sets to 1 to stop the current run:
 * the interrupt handler reads it inside the code's own loop, so it works while the code is
 * busy and this thread's event loop is not turning.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten'
import { Run } from './sandbox.mjs'

/** The module's own linear memory before any code runs (its INITIAL_MEMORY: static data, 5 MiB C stack). */
const BASE_BYTES = 16 * 1024 * 1024
const PAGE = 65536

/** @typedef {import('./protocol.js').ToSandbox} ToSandbox */
/** @typedef {import('./protocol.js').FromSandbox} FromSandbox */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)
const stop = new Int32Array(/** @type {SharedArrayBuffer} */ (workerData.stop))

// QuickJS's own memory limit counts a fixed 8 bytes per allocation in this build, so it bounds
// one allocation's size but not the total. The real cap is the WebAssembly memory itself: it
// may grow to BASE_BYTES + the limit and no further; a refused growth is a failed malloc, which
// QuickJS reports as out of memory. Refusals are counted so a run can tell an OOM from a throw.
/** @type {any} */
const { WebAssembly } = globalThis
const memory = new WebAssembly.Memory({
  initial: BASE_BYTES / PAGE,
  maximum: Math.ceil((BASE_BYTES + /** @type {number} */ (workerData.memoryLimitBytes)) / PAGE),
})
let refusals = 0
const grow = memory.grow.bind(memory)
memory.grow = (/** @type {number} */ delta) => {
  try {
    return grow(delta)
  } catch (error) {
    refusals++
    throw error
  }
}
const variant = newVariant(RELEASE_SYNC, { wasmMemory: memory })
/** @typedef {import('quickjs-emscripten').QuickJSEmscriptenModule} EmscriptenModule */
/** @type {EmscriptenModule | undefined} */
let emscripten
// The variant's loader, wrapped only to keep the Emscripten module it makes (its `_malloc`).
const module = await newQuickJSWASMModuleFromVariant({
  ...variant,
  importModuleLoader: async () => {
    const imported = await variant.importModuleLoader()
    const load = /** @type {import('quickjs-emscripten').EmscriptenModuleLoader<EmscriptenModule>} */ (
      'default' in imported ? imported.default : imported)
    return async (options) => (emscripten = await load(options))
  },
})
const heap = /** @type {EmscriptenModule} */ (emscripten)
// quickjs-emscripten writes what the host hands QuickJS (strings, argument lists) through
// `_malloc` without checking for 0, which would write over QuickJS's data at address 0. A
// failed host-side allocation throws instead, and counts as a refusal (the thread is retired).
const malloc = heap._malloc.bind(heap)
heap._malloc = (/** @type {number} */ size) => {
  const pointer = malloc(size)
  if (pointer !== 0) return pointer
  refusals++
  throw new RangeError(`out of memory: the sandbox could not allocate ${size} bytes for the host`)
}

/** Whether `bytes` can be allocated in one piece now: allocated, then freed at once. */
const fits = (/** @type {number} */ bytes) => {
  const pointer = malloc(bytes)
  if (pointer === 0) {
    refusals++
    return false
  }
  heap._free(pointer)
  return true
}
/** @type {Run | undefined} */
let current

const send = (/** @type {FromSandbox} */ message) => port.postMessage(message)

port.on('message', (/** @type {ToSandbox} */ message) => {
  switch (message.type) {
    case 'run': {
      const run = current = new Run(module, message, {
        stopRequested: () => Atomics.load(stop, 0) !== 0,
        memoryRefusals: () => refusals,
        fits,
        call: (id, name, args) => send({ type: 'call', id, name, args }),
        done: (outcome, healthy) => {
          if (current === run) current = undefined
          send({ type: 'done', outcome, healthy })
        },
      })
      run.start()
      break
    }
    case 'reply':
      current?.reply(message.id, message.envelope)
      break
    case 'stop':
      current?.stop()
      break
    default: {
      /** @type {never} */
      const unknown = message
      throw new TypeError(`unknown message ${JSON.stringify(unknown)}`)
    }
  }
})

send({ type: 'ready' })
