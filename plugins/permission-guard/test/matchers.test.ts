import { describe, expect, it } from 'vitest'
import { compileMatcher, createShellReader, PolicyError, testMatcher } from '../src/matchers.js'

const read = createShellReader()
const deny = (glob: string, value: unknown) => testMatcher(compileMatcher({ shell: glob }, []), value, false, read).matched
const allow = (glob: string, value: unknown) => testMatcher(compileMatcher({ shell: glob }, []), value, true, read).matched

function compileError(value: unknown): PolicyError {
  try {
    compileMatcher(value, ['rules', 0, 'when', 'command'])
  } catch (error) {
    return error as PolicyError
  }
  throw new Error('expected a PolicyError')
}

describe('shell matchers', () => {
  it('restrict when any command matches, allow only when every command does', () => {
    expect(deny('rm *', 'git status; rm -rf /')).toBe(true)
    expect(deny('rm *', 'git status && git diff')).toBe(false)
    expect(allow('git *', 'git status && git diff')).toBe(true)
    expect(allow('git *', 'git status; rm -rf /')).toBe(false)
    expect(allow('git *', 'git log $(rm -rf /)')).toBe(false)
  })

  it('treat a command named only at run time as matching every deny and no allow', () => {
    expect(deny('git *', '$CMD x')).toBe(true)
    expect(allow('*', '$CMD x')).toBe(false)
    expect(allow('*', 'git status; "$(which git)" status')).toBe(false)
  })

  it('fail closed on text that is not shell, or an argument that is not a string', () => {
    expect(deny('git *', 'echo "unterminated')).toBe(true)
    expect(allow('*', 'echo "unterminated')).toBe(false)
    expect(deny('git *', 42)).toBe(true)
    expect(allow('*', ['ls'])).toBe(false)
  })

  it('match nothing for a missing argument, and allow nothing for a line with no command', () => {
    expect(deny('*', undefined)).toBe(false)
    expect(allow('*', undefined)).toBe(false)
    expect(deny('*', '> /etc/passwd')).toBe(false)
    expect(allow('*', '> /etc/passwd')).toBe(false)
    expect(allow('*', '# nothing')).toBe(false)
  })

  it('never let an allow match a line that redirects output into a file', () => {
    expect(allow('git *', 'git log > ~/.bashrc')).toBe(false)
    expect(allow('git *', 'git log >> notes.txt')).toBe(false)
    expect(allow('git *', 'git log &> out')).toBe(false)
    expect(allow('git *', '{ git log; } > out')).toBe(false)
    expect(allow('git *', "sh -c 'git log > out'")).toBe(false)
    expect(allow('git *', 'git log > "$F"')).toBe(false)
    expect(allow('git *', 'git log 2>&1 >/dev/null | git status 2> /dev/null < in.txt')).toBe(true)
    expect(deny('git *', 'git log > out')).toBe(true)
  })

  it('never let an allow match a command word with a `..` segment', () => {
    expect(allow('cat *', 'cat src/a.ts')).toBe(true)
    expect(allow('cat *', 'cat src/../../etc/passwd')).toBe(false)
    expect(allow('cd *', 'cd ..')).toBe(false)
    expect(allow('cat *', 'cat "../x"')).toBe(false)
    expect(deny('cat *', 'cat ../x')).toBe(true)
  })

  it('explain a match that comes from an unknown name or unreadable text', () => {
    const matcher = compileMatcher({ shell: 'rm *' }, [])
    expect(testMatcher(matcher, 'ls; $X y', false, read)).toEqual({ matched: true, note: '"$X y" names its command only at run time, so it counts as matching' })
    expect(testMatcher(matcher, 'ls "', false, read)).toEqual({
      matched: true, note: 'the command could not be read as shell (1:4: reached EOF without closing quote "), so it counts as matching',
    })
    expect(testMatcher(matcher, 'rm x; $X', false, read)).toEqual({ matched: true })
  })
})

describe('compileMatcher', () => {
  it('compiles a glob string as a text matcher and { shell } as a shell matcher', () => {
    expect(compileMatcher('rm *', []).kind).toBe('text')
    expect(compileMatcher({ shell: 'rm *' }, []).kind).toBe('shell')
  })

  it('names the entry and the fix for a bad matcher', () => {
    expect(compileError({ shel: 'rm *' })).toMatchObject({
      path: ['rules', 0, 'when', 'command'],
      message: 'has an unknown key "shel": the only key is "shell", as in { shell: "rm *" }',
    })
    expect(compileError({ shell: 'rm *', mode: 'every' }).message).toBe('has an unknown key "mode": the only key is "shell", as in { shell: "rm *" }')
    expect(compileError({ shell: ['rm *'] })).toMatchObject({
      path: ['rules', 0, 'when', 'command', 'shell'],
      message: 'must be a non-empty glob string such as "rm *"; got ["rm *"]',
    })
    expect(compileError({}).message).toBe('must be a non-empty glob string such as "rm *"; got undefined')
    expect(compileError({ shell: 'rm [' })).toMatchObject({
      path: ['rules', 0, 'when', 'command', 'shell'],
      message: '"rm [" has a "[" without its closing "]" (escape a literal one as "\\[")',
    })
    expect(compileError(true).message).toBe('must be a glob string such as "src/*", or { shell: glob } for a shell command line; got true')
    expect(compileError(null).message).toBe('must be a glob string such as "src/*", or { shell: glob } for a shell command line; got null')
  })
})
