/**
 * `@rein/cli`: the `rein` command as a library. `main(argv, io)` runs one command line and
 * resolves with its exit code; the trace reader, layout and renderer are exported for tools
 * that want the timeline without the command.
 */
export { main, COMMANDS } from './main.js'
export { ExitCodes, type ExitCode } from './exit-codes.js'
export { processIo, type Io, type Output } from './io.js'
export { readTrace, readTraceFile, type Trace, type TraceCall, type TraceTurn } from './trace/read.js'
export { layoutTrace, type Layout, type LayoutOptions } from './trace/layout.js'
export { renderTrace } from './trace/render.js'
