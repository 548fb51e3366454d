import { describe, expect, it } from 'vitest'
import { readCommandLine, MAX_DEPTH, MAX_LENGTH, MAX_WRAPPERS, type Reading } from '../src/read.js'
import { MAX_NODES, parseBash } from '../src/parser.js'
import { CORPUS } from '../src/corpus.js'

/** A reading as the corpus writes it: one string per command, `?` before an unknown name, `=` when it assigns. */
function shown(line: string): string[] | 'unparseable' {
  const reading: Reading = readCommandLine(line, parseBash)
  return reading.ok ? reading.commands.map((c) => `${c.known ? '' : '?'}${c.assigns ? '=' : ''}${c.words.join(' ')}`) : 'unparseable'
}

describe('readCommandLine', () => {
  it.each(CORPUS.map((s) => [JSON.stringify(s.line), s] as const))('reads %s as the corpus says', (_, { line, reads }) => {
    expect(shown(line)).toEqual(reads)
  })

  it('reads ordinary command lines as the commands a person sees', () => {
    expect(shown('git status && git diff --stat | head -n 20')).toEqual(['git status', 'git diff --stat', 'head -n 20'])
    expect(shown('npm test -- --run "a b"')).toEqual(['npm test -- --run a b'])
    expect(shown('LANG=C sort -u < in.txt > out.txt')).toEqual(['=sort -u'])
    expect(shown('')).toEqual([])
    expect(shown('# only a comment')).toEqual([])
  })

  it('keeps expansions in arguments as written, quotes removed', () => {
    expect(shown('cat "$HOME/.ssh/id_rsa"')).toEqual(['cat $HOME/.ssh/id_rsa'])
    expect(shown("echo '$HOME' \\$HOME")).toEqual(['echo $HOME $HOME'])
  })

  it('gives up on shell code nested deeper than MAX_DEPTH, and on syntax errors, with a reason', () => {
    let line = 'rm x'
    for (let i = 0; i <= MAX_DEPTH; i++) line = `eval ${JSON.stringify(line)}`
    expect(readCommandLine(line, parseBash)).toEqual({ ok: false, reason: `shell code nested more than ${MAX_DEPTH} levels deep` })
    expect(readCommandLine('echo "a', parseBash)).toEqual({ ok: false, reason: '1:6: reached EOF without closing quote "' })
  })

  it('fails closed on input too deeply nested, or too long, to read', () => {
    const deep = `${'$('.repeat(5000)}rm x${')'.repeat(5000)}`
    expect(readCommandLine(deep, parseBash).ok).toBe(false)
    expect(readCommandLine(`${'sudo '.repeat(MAX_WRAPPERS)}rm x`, parseBash).ok).toBe(true)
    expect(readCommandLine(`${'sudo '.repeat(MAX_WRAPPERS + 1)}rm x`, parseBash))
      .toEqual({ ok: false, reason: `more than ${MAX_WRAPPERS} wrappers around one command` })
    expect(readCommandLine(`echo ${'a'.repeat(MAX_LENGTH)}`, parseBash)).toEqual({ ok: false, reason: 'it is longer than 128 KiB' })
  })

  it('gives up on a line of more than MAX_NODES syntax nodes, but reads a long here-document', () => {
    const many = 'echo a; '.repeat(MAX_NODES)
    expect(readCommandLine(`${many}rm x`, parseBash)).toEqual({ ok: false, reason: `it has more than ${MAX_NODES} syntax nodes (about ${MAX_NODES / 6} commands)` })
    expect(readCommandLine('echo a; '.repeat(100) + 'rm x', parseBash)).toMatchObject({ ok: true })
    const heredoc = readCommandLine(`cat > f.txt <<'EOF'\n${'a line of text\n'.repeat(4000)}EOF\nrm x`, parseBash)
    expect(heredoc.ok && heredoc.commands.map((c) => c.words.join(' '))).toEqual(['cat', 'rm x'])
  })
})
