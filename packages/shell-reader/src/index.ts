/**
 * `@rein/shell-reader`: a bash command line read as the simple commands it runs, for policies
 * that match commands rather than text, and the text globs they match with.
 *
 *   const reading = readCommandLine('sudo sh -c "rm -rf x"', parseBash)
 *   // { ok: true, commands: [{ words: ['sudo', 'sh', '-c', 'rm -rf x'] … }, … { words: ['rm', '-rf', 'x'] … }] }
 *
 * Pure functions; nothing is kept between calls but the loaded parser.
 */
export { readCommandLine, MAX_DEPTH, MAX_LENGTH, MAX_WRAPPERS, type Reading, type ShellCommand } from './read.js'
export { parseBash, MAX_NODES } from './parser.js'
export type { ShellParser, ParseResult, SimpleCommand, Word, Part } from './syntax.js'
export { compileGlob, GlobError, type Glob } from './glob.js'
export { CORPUS, type Spelling } from './corpus.js'
