/**
 * The worker-thread side of an isolated tool or function (loaded by tinypool, never by the
 * main thread). It imports the module, calls the named export with the arguments and a
 * `progress` reporter (or, when the export is a tool definition, its `execute` with a small
 * `exec`), and always answers with a plain record: a thrown error is reduced to its message,
 * name and string `code`, which a structured clone of an Error would lose.
 */

/** The signal a tool definition's `execute` gets here: it never aborts, since termination replaces it. */
const NEVER = new AbortController().signal

/**
 * One call. Runs in a worker thread; the main thread terminates the thread to cancel it.
 * @param {{ module: string, export: string, args: unknown, port: import('node:worker_threads').MessagePort }} task
 */
export default async function runIsolated(task) {
  const { module, export: name, args, port } = task
  try {
    const found = (await import(module))[name]
    const progress = (info) => port.postMessage(info ?? null)
    let value
    if (typeof found === 'function') value = await found(args, { progress })
    else if (typeof found?.execute === 'function') value = await found.execute(args, { progress, signal: NEVER, meta: {} })
    else throw new TypeError(`${module} has no function export "${name}" (nor a tool definition with an execute function)`)
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
