/** `@rein/kernel/results`: the result helpers alone, for a process that reads results without running the kernel. */
export { ABANDONED_NAMES, bodyMayStillRun, codeOf, failure, finalizeContent, isContent, isContentBlock } from './results.js'
