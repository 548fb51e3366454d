/**
 * `@rein/isolate`: tools whose body runs in a tinypool worker thread, for bodies that cannot
 * honour an abort (CPU-bound loops, synchronous libraries, catastrophic regexes). An abort
 * terminates the worker, so such a body stops for real instead of running on in the background.
 */
export { isolatedTool, registerIsolated, type IsolatedTool, type IsolatedToolOptions } from './isolated-tool.js'
export type { PoolOptions } from './pool.js'
