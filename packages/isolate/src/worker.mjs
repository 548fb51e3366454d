/**
 * The worker-thread side of an isolated tool (loaded by tinypool, never by the main thread).
 * It imports the tool's module, calls the named export with the arguments and a `progress`
 * reporter, and always answers with a plain record: a thrown error is reduced to its
 * message, name and string `code`, which a structured clone of an Error would lose.
 */

/**
 * One call. Runs in a worker thread; the main thread terminates the thread to cancel it.
 * @param {{ module: string, export: string, args: unknown, port: import('node:worker_threads').MessagePort }} task
 */
export default async function runIsolated(task) {
  const { module, export: name, args, port } = task
  try {
    const fn = (await import(module))[name]
    if (typeof fn !== 'function') throw new TypeError(`${module} has no function export "${name}"`)
    const progress = (info) => port.postMessage(info ?? null)
    const value = await fn(args, { progress })
    // Fails here, with a readable DataCloneError, rather than later in tinypool's reply,
    // where the error itself could not be cloned either and would arrive empty.
    structuredClone(value)
    return { ok: true, value }
  } catch (error) {
    return { ok: false, error: describe(error) }
  } finally {
    port.close()
  }
}

/** What survives of a thrown value: its message, and its name and code when they are strings. */
function describe(error) {
  const message = error instanceof Error ? error.message || error.name : String(error)
  const name = typeof error?.name === 'string' ? error.name : undefined
  const code = typeof error?.code === 'string' ? error.code : undefined
  return { message, name, code }
}
