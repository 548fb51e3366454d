/** Code bash evaluates at run time reads as a command known only at run time; plain data does not. */
import { describe, expect, it } from 'vitest'
import { evaluatesCode, plainAssignment, setsVariables } from '../src/evaluation.js'
import { parseBash } from '../src/parser.js'
import { reads } from './reads.js'
import type { Word } from '../src/syntax.js'


/** Whether the line has a command known only at run time. */
const unknown = (line: string) => reads(line).some((command) => command.startsWith('?'))

/** Words as the parser would hand them over: `$x` and `$(…)` dynamic, the rest literal. */
function words(...texts: string[]): Word[] {
  return texts.map((text) => ({
    parts: text.split(/(\$\w+|\$\([^)]*\)|"\$\w+")/).filter(Boolean).map((piece) => (piece.startsWith('$') || piece.startsWith('"$')
      ? { kind: 'dynamic' as const, source: piece.replace(/"/g, ''), quoted: piece.startsWith('"') }
      : { kind: 'literal' as const, text: piece, quoted: false })),
  }))
}

describe('code bash evaluates at run time', () => {
  it('reads arithmetic with a name or an expansion in it as unknown code', () => {
    expect(reads('(( x ))')).toEqual(['?(( x ))'])
    expect(reads('echo $((x + 1))')).toEqual(['echo $((x + 1))', '?$((x + 1))'])
    expect(reads('echo $[x]')).toEqual(['echo $[x]', '?$[x]'])
    expect(reads('echo $(( $1 * 2 ))')).toEqual(['echo $(( $1 * 2 ))', '?$(( $1 * 2 ))'])
    expect(reads('let i++')).toEqual(['?let i++'])
    expect(reads('builtin let i++')).toEqual(['builtin let i++', 'let i++', '?let i++'])
    expect(reads('for ((i = 0; i < 3; i++)); do echo $i; done')).toEqual(['?((i = 0; i < 3; i++))', 'echo $i'])
  })

  it('leaves arithmetic of numbers and operators alone', () => {
    expect(reads('echo $((2 * 3)) $(( $# > 0 )) $(( ${#x} + 1 ))')).toEqual(['echo $((2 * 3)) $(( $# > 0 )) $(( ${#x} + 1 ))'])
    expect(reads('(( 1 ))')).toEqual([])
  })

  it('reads [[ … ]] as unknown code only when it evaluates arithmetic or a variable name', () => {
    expect(reads('[[ $n -eq 1 ]]')).toEqual(['?[[ $n -eq 1 ]]'])
    expect(reads('[[ -f x && 1 -lt y ]] && ls')).toEqual(['?[[ -f x && 1 -lt y ]]', 'ls'])
    expect(reads('[[ -v $name ]]')).toEqual(['?[[ -v $name ]]'])
    expect(reads('[[ -f x && ( $a == b* || ! -d y ) ]] && ls')).toEqual(['ls'])
    expect(reads('[[ $# -gt 0 && -v HOME ]]')).toEqual([])
  })

  it('reads ${!x}, ${x@…}, and subscripts or offsets that are not numbers as unknown code', () => {
    expect(reads('echo ${!x} ${!a[@]} ${x@P} ${x@Q} ${a[i]} ${a[$i]} ${#a[i]} ${x:i} ${x:0:$n}')).toEqual([
      'echo ${!x} ${!a[@]} ${x@P} ${x@Q} ${a[i]} ${a[$i]} ${#a[i]} ${x:i} ${x:0:$n}',
      '?${!x}', '?${!a[@]}', '?${x@P}', '?${x@Q}', '?${a[i]}', '?${a[$i]}', '?${#a[i]}', '?${x:i}', '?${x:0:$n}',
    ])
    expect(reads('cat <<EOF\n${!x}\nEOF')).toEqual(['cat', '?${!x}'])
    expect(reads("cat <<'EOF'\n${!x}\nEOF")).toEqual(['cat'])
    expect(reads('echo ${x} ${#x} ${a[0]} ${a[@]} ${a[*]} ${x:1:2} ${x: -1} ${x:-d} ${x/a/b} ${x^^}')).toHaveLength(1)
  })

  it('reads an assignment with a subscript that is not a number as unknown code', () => {
    expect(reads('a[i]=1')).toEqual(['?=a[i]=1'])
    expect(reads('a=([k]=v) b=1')).toEqual(['?=a=([k]=v) b=1'])
    expect(reads('a[0]=1 b=(x y) c+=z')).toEqual(['=a[0]=1 b=(x y) c+=z'])
    expect(reads('a[$i]=1; ls')).toEqual(['?=a[$i]=1', 'ls'])
  })

  it('reads assignments to variables bash runs, or evaluates as arithmetic, as unknown code', () => {
    expect(reads(`PS4='$(id)'; set -x`)).toEqual(['?=PS4=$(id)', 'set -x'])
    expect(reads('BASH_ENV=./x bash -c ls')).toEqual(['?=BASH_ENV=./x', '=bash -c ls', '=ls'])
    expect(reads('OPTIND=$x')).toEqual(['?=OPTIND=$x'])
    expect(reads('OPTIND=1')).toEqual(['=OPTIND=1'])
    expect(reads(`env 'BASH_FUNC_ls%%=() { id; }' bash -c ls`)).toEqual([
      'env BASH_FUNC_ls%%=() { id; } bash -c ls', '?=BASH_FUNC_ls%%=() { id; }', '=bash -c ls', '=ls',
    ])
    expect(reads('export PROMPT_COMMAND=id')).toEqual(['=export PROMPT_COMMAND=id', '?export PROMPT_COMMAND=id'])
  })

  it('reads a variable redirection with a subscript as unknown code', () => {
    expect(reads('echo hi {a[i]}>/dev/null')).toEqual(['echo hi {a[i]}', '?{a[i]}'])
    expect(reads('exec {fd}>/dev/null')).toEqual(['exec'])
  })

  it('reads builtins that take a variable name as unknown code when the name is not plain', () => {
    for (const line of [
      "test -v 'a[$i]'", '[ -v "$v" ]', '[ -f $x ]', '[ "$@" ]', '[ "$op" x ]', '[ -f "$a" -a -f "$b" ]',
      "printf -v 'a[$i]' x", 'printf -va[i] x', 'printf "$fmt" x', 'printf $opts x',
      "read 'a[$i]'", 'read -a "$n"', 'read -r $v', "unset 'a[i]'", 'unset "$v"', 'unset -f my-function',
      'mapfile -C cb a', 'readarray -C cb a', 'mapfile "$v"', 'wait -p "$v" -n', 'wait $pid', 'getopts ab "$v"',
      'declare -n r=x', 'local -i n', 'typeset -in x', "export 'a[$i]'=1", 'readonly "$v"', 'declare $x=1',
      'hash -p /bin/rm ls', 'alias ls=rm', 'alias "$a"', 'enable -f ./x.so x', 'nameref r=x',
    ]) {
      expect([line, unknown(line)]).toEqual([line, true])
    }
  })

  it('leaves the everyday uses of those builtins alone', () => {
    for (const line of [
      '[ -n "$x" ]', '[ -z "$(git status --porcelain)" ]', '[ "$a" = "$b" ]', '[ "$n" -gt 3 ]', '[ ! "$x" ]',
      '[ -f package.json -a -d src ]', 'test -v HOME', '[ -v a[0] ]', 'test "$x"', '[ $# -eq 0 ]', '[ ${#x} -gt 3 ]',
      "printf '%s\\n' \"$x\" $y", 'printf -v out %s x', 'printf -- "$fmt"', 'read -r line', 'read -ra parts -d , -p "$prompt"',
      'while IFS= read -r line; do echo "$line"; done < f', 'mapfile -t lines < f', 'unset x y a[0]', 'wait', 'wait -n',
      'getopts ab: opt', 'declare -a arr=(1 2)', 'local x=1 y', 'export -p', 'export -f f', 'readonly -p',
      'hash -r', 'hash -t git', 'alias', 'alias ll', 'enable -n echo',
    ]) {
      expect([line, unknown(line)]).toEqual([line, false])
    }
  })

  it('tells plain assignments from code, and which builtins set variables', () => {
    expect(words('A=1', 'A+=$x', 'a[0]=1', 'PATH=.:$PATH', 'OPTIND=1', 'RANDOM=-5').every(plainAssignment)).toBe(true)
    expect(words('PS4=x', 'BASH_ENV=f', 'ENV=f', 'PROMPT_COMMAND=id', 'BASH_FUNC_f=x', 'OPTIND=$x', 'RANDOM=a[1]', 'a[i]=1', 'a b=1', '$n=1', '=1')
      .filter(plainAssignment)).toEqual([])
    expect(evaluatesCode('printf', words('printf', '-v', 'out', '%s'))).toBe(false)
    expect(evaluatesCode('printf', words('printf', '"$fmt"'))).toBe(true)
    expect(evaluatesCode('ls', words('ls', '$x'))).toBe(false)
    expect(setsVariables('read', words('read', '-r', 'PATH'))).toBe(true)
    expect(setsVariables('read', words('read', '-r', 'line'))).toBe(false)
    expect(setsVariables('printf', words('printf', '-v', 'GIT_DIR', 'x'))).toBe(true)
    expect(setsVariables('local', words('local', 'x'))).toBe(true)
    expect(setsVariables('export', words('export', '-p'))).toBe(false)
    expect(setsVariables('ls', words('ls', 'PATH'))).toBe(false)
  })

  it('reads a declaration value bash parses again as a compound array assignment as code, and its commands as commands', () => {
    expect(reads("local -a 'x=($(rm y))'")).toEqual(['=local -a x=($(rm y))', '?local -a x=($(rm y))', '=x=($(rm y))', 'rm y'])
    expect(reads("declare 'x=(a b)'")).toEqual(['=declare x=(a b)', '?declare x=(a b)', '=x=(a b)'])
    expect(reads('declare -a x=$v')).toEqual(['=declare -a x=$v', '?declare -a x=$v'])
    expect(reads('declare -A x=${v}')).toEqual(['=declare -A x=${v}', '?declare -A x=${v}'])
    expect(reads('x=(); export x=$v')).toEqual(['=x=()', '=export x=$v', '?=export x=$v'])
    expect(reads('export x=$v; x[2]=1')).toEqual(['=export x=$v', '?=export x=$v', '=x[2]=1'])
    expect(reads('declare x=$(cat f) y=(1)')).toEqual(['=declare x=$(cat f) y=(1)', 'cat f'])
    expect(reads('declare x=$(cat f) y=(1); declare x=$v')).toEqual(['=declare x=$(cat f) y=(1)', 'cat f', '=declare x=$v'])
  })

  it('leaves declarations alone whose values bash only assigns', () => {
    expect(reads('export PATH=$HOME/bin:$PATH; local dir=$(pwd) n=1')).toEqual(['=export PATH=$HOME/bin:$PATH', '=local dir=$(pwd) n=1', 'pwd'])
    expect(reads('declare -a files=(a "$b" c); local -a list=([0]=v)')).toEqual(['=declare -a files=(a "$b" c)', '=local -a list=([0]=v)'])
    expect(reads("declare -a x; x='($(rm y))'; declare x+=a$v")).toEqual(['=declare -a x', '=x=($(rm y))', '=declare x+=a$v'])
    expect(reads('declare +a x=$v; declare -r x=y$v')).toEqual(['=declare +a x=$v', '=declare -r x=y$v'])
  })
})
