/**
 * `@rein/isolate`: code that runs in a tinypool worker thread, for work that cannot honour an
 * abort (CPU-bound loops, synchronous libraries, catastrophic regexes). An abort terminates
 * the worker, so such work stops for real instead of running on in the background. A whole
 * tool body (`isolatedTool`) or one step of a tool (`isolatedFunction`) can run there.
 */
export { isolatedTool, registerIsolated, type IsolatedTool, type IsolatedToolOptions } from './isolated-tool.js'
export { isolatedFunction, type IsolatedFunction, type IsolatedFunctionOptions } from './isolated-function.js'
export type { PoolOptions } from './pool.js'
