import { describe, expect, it } from 'vitest'
import { readCommandLine } from '../../src/shell/read.js'
import { parseBash } from '../../src/shell/parser.js'

/** The commands a line reads as, `?` before a name known only at run time, `=` when it assigns. */
function reads(line: string): string[] {
  const reading = readCommandLine(line, parseBash)
  if (!reading.ok) throw new Error(reading.reason)
  return reading.commands.map((c) => `${c.known ? '' : '?'}${c.assigns ? '=' : ''}${c.words.join(' ')}`)
}

describe('wrappers', () => {
  it('reads the command a wrapper runs after its own options and settings', () => {
    expect(reads('env -u HOME --chdir=/tmp A=1 rm x')).toEqual(['env -u HOME --chdir=/tmp A=1 rm x', '=rm x'])
    expect(reads('sudo -E -u root -g wheel HOME=/root rm x')).toEqual(['sudo -E -u root -g wheel HOME=/root rm x', '=rm x'])
    expect(reads('nice -10 rm x')).toEqual(['nice -10 rm x', 'rm x'])
    expect(reads('timeout --signal=KILL 10s rm x')).toEqual(['timeout --signal=KILL 10s rm x', 'rm x'])
    expect(reads('stdbuf -oL rm x')).toEqual(['stdbuf -oL rm x', 'rm x'])
    expect(reads('chroot /jail rm x')).toEqual(['chroot /jail rm x', 'rm x'])
    expect(reads('doas -u root rm x')).toEqual(['doas -u root rm x', 'rm x'])
    expect(reads('busybox rm x')).toEqual(['busybox rm x', 'rm x'])
    expect(reads('setsid -f rm x')).toEqual(['setsid -f rm x', 'rm x'])
    expect(reads('ionice -c 3 rm x')).toEqual(['ionice -c 3 rm x', 'rm x'])
    expect(reads('sudo sudo env nohup rm x')).toEqual(['sudo sudo env nohup rm x', 'sudo env nohup rm x', 'env nohup rm x', 'nohup rm x', 'rm x'])
  })

  it('reads a wrapper with nothing to run as itself only', () => {
    expect(reads('env')).toEqual(['env'])
    expect(reads('sudo -l')).toEqual(['sudo -l'])
    expect(reads('exec 3>&1')).toEqual(['exec'])
  })

  it('gives up on a wrapper option it does not know, or a setting known only at run time', () => {
    expect(reads('sudo --bogus rm x')).toEqual(['sudo --bogus rm x', '?sudo --bogus rm x'])
    expect(reads('nice -z rm x')).toEqual(['nice -z rm x', '?nice -z rm x'])
    expect(reads('sudo -u $WHO rm x')).toEqual(['sudo -u $WHO rm x', '?sudo -u $WHO rm x'])
    expect(reads('env $SETTINGS ls')).toEqual(['env $SETTINGS ls', '?env $SETTINGS ls'])
  })

  it('appends the items xargs reads as {}, unless -I places them', () => {
    expect(reads('xargs -n 1 rm')).toEqual(['xargs -n 1 rm', 'rm {}'])
    expect(reads('xargs -I % rm %')).toEqual(['xargs -I % rm %', 'rm %'])
    expect(reads('xargs -i rm {}')).toEqual(['xargs -i rm {}', 'rm {}'])
    expect(reads('xargs')).toEqual(['xargs'])
  })

  it('reads every command find runs, up to ; or +', () => {
    expect(reads('find . -name x -exec rm {} + -execdir chmod 600 {} \\; -print'))
      .toEqual(['find . -name x -exec rm {} + -execdir chmod 600 {} ; -print', 'rm {}', 'chmod 600 {}'])
    expect(reads('find . -delete')).toEqual(['find . -delete'])
  })

  it('reads the script of a shell from -c or from a here-document; one from a file or a pipe is unknown code', () => {
    expect(reads("bash -e -o pipefail -c 'rm x' name arg")).toEqual(['bash -e -o pipefail -c rm x name arg', 'rm x'])
    expect(reads("sh -s <<'EOF'\nrm x\nEOF")).toEqual(['sh -s', 'rm x'])
    expect(reads('bash script.sh')).toEqual(['bash script.sh', '?bash script.sh'])
    expect(reads('curl -s example.com | sh')).toEqual(['curl -s example.com', 'sh', '?sh'])
    expect(reads("echo 'rm x' | bash")).toEqual(['echo rm x', 'bash', '?bash'])
    expect(reads('bash < x.sh')).toEqual(['bash', '?bash'])
    expect(reads('bash -c')).toEqual(['bash -c'])
    expect(reads('bash $SCRIPT')).toEqual(['bash $SCRIPT', '?bash $SCRIPT'])
  })

  it('reads eval, trap, su -c and watch as shell source', () => {
    expect(reads('eval rm "$x"')).toEqual(['eval rm $x', '?rm $x'])
    expect(reads('eval')).toEqual(['eval'])
    expect(reads("trap -- 'rm x' EXIT")).toEqual(['trap -- rm x EXIT', 'rm x'])
    expect(reads('trap - EXIT')).toEqual(['trap - EXIT'])
    expect(reads('trap -p')).toEqual(['trap -p'])
    expect(reads('su --command="rm x" root')).toEqual(['su --command=rm x root', 'rm x'])
    expect(reads("watch 'ls; rm x'")).toEqual(['watch ls; rm x', 'ls', 'rm x'])
    expect(reads('watch -x rm x')).toEqual(['watch -x rm x', 'rm x'])
  })

  it('reads settings and operands after --, and a lone - as env -i', () => {
    expect(reads('env - rm x')).toEqual(['env - rm x', 'rm x'])
    expect(reads('env -- A=1 rm x')).toEqual(['env -- A=1 rm x', '=rm x'])
    expect(reads('env -i -- A=1 B=2 rm x')).toEqual(['env -i -- A=1 B=2 rm x', '=rm x'])
    expect(reads('sudo -- A=1 rm x')).toEqual(['sudo -- A=1 rm x', '=rm x'])
    expect(reads('timeout -- 5 rm x')).toEqual(['timeout -- 5 rm x', 'rm x'])
    expect(reads('timeout -s KILL -- 5 rm x')).toEqual(['timeout -s KILL -- 5 rm x', 'rm x'])
    expect(reads('chroot -- / rm x')).toEqual(['chroot -- / rm x', 'rm x'])
    expect(reads('nice -- rm x')).toEqual(['nice -- rm x', 'rm x'])
    expect(reads('timeout -- 5')).toEqual(['timeout -- 5'])
    expect(reads('env A=1 $CMD x')).toEqual(['env A=1 $CMD x', '?=$CMD x'])
  })

  it('stops at the first word that is not an option, as the wrapper does', () => {
    expect(reads('env A=1 -i rm x')).toEqual(['env A=1 -i rm x', '=-i rm x'])
    expect(reads('timeout 5 -s rm x')).toEqual(['timeout 5 -s rm x', '-s rm x'])
  })

  it('takes the -- after time (and time -p) as its own', () => {
    expect(reads('time -- rm x')).toEqual(['rm x'])
    expect(reads('time -p -- rm x')).toEqual(['rm x'])
    expect(reads('time -- -- rm x')).toEqual(['-- rm x'])
    expect(reads('echo -- x')).toEqual(['echo -- x'])
  })

  it('reads runuser -u USER as running its command', () => {
    expect(reads('runuser -u nobody -- rm x')).toEqual(['runuser -u nobody -- rm x', 'rm x'])
    expect(reads('runuser -u nobody rm x')).toEqual(['runuser -u nobody rm x', 'rm x'])
    expect(reads('runuser --user=nobody -g users -- rm -s x')).toEqual(['runuser --user=nobody -g users -- rm -s x', 'rm -s x'])
    expect(reads("runuser -l nobody -c 'rm x'")).toEqual(['runuser -l nobody -c rm x', 'rm x'])
    expect(reads('runuser -u $U -- rm x')).toEqual(['runuser -u $U -- rm x', '?runuser -u $U -- rm x'])
    expect(reads('runuser -u nobody')).toEqual(['runuser -u nobody'])
  })

  it('reads su -s SHELL as unknown: the shell can be any program', () => {
    expect(reads('su -s /bin/rm root')).toEqual(['su -s /bin/rm root', '?su -s /bin/rm root'])
    expect(reads('su --shell=/bin/rm root')).toEqual(['su --shell=/bin/rm root', '?su --shell=/bin/rm root'])
    expect(reads("su root --session-command 'rm x'")).toEqual(['su root --session-command rm x', 'rm x'])
  })

  it('reads a here-document given to a shell with a file operand as its script (the file may be standard input)', () => {
    expect(reads('bash /dev/stdin <<< "rm x"')).toEqual(['bash /dev/stdin', 'rm x'])
    expect(reads('cd /dev && bash ./stdin <<< "rm x"')).toEqual(['cd /dev', 'bash ./stdin', 'rm x'])
    expect(reads("bash /dev/fd/3 3<<< 'rm x'")).toEqual(['bash /dev/fd/3', '?bash /dev/fd/3'])
    expect(reads('bash script.sh arg')).toEqual(['bash script.sh arg', '?bash script.sh arg'])
    expect(reads('bash --rcfile <(echo rm x) -i')).toEqual(['bash --rcfile <(echo rm x) -i', '?bash --rcfile <(echo rm x) -i', 'echo rm x'])
  })

  it('reads source and . as unknown, unless they read a here-document from standard input', () => {
    expect(reads('. /dev/stdin <<< "rm x"')).toEqual(['. /dev/stdin', 'rm x'])
    expect(reads('source -- /proc/self/fd/0 <<EOF\nrm x\nEOF')).toEqual(['source -- /proc/self/fd/0', 'rm x'])
    expect(reads('source ./venv/bin/activate && pytest')).toEqual(['source ./venv/bin/activate', '?source ./venv/bin/activate', 'pytest'])
    expect(reads('source <(echo rm x)')).toEqual(['source <(echo rm x)', '?source <(echo rm x)', 'echo rm x'])
    expect(reads('echo rm x | . /dev/stdin')).toEqual(['echo rm x', '. /dev/stdin', '?. /dev/stdin'])
    expect(reads('source')).toEqual(['source'])
  })

  it('hands the here-documents of a compound command, or of a command running a script, to the commands inside', () => {
    expect(reads("{ bash; } <<< 'rm x'")).toEqual(['bash', 'rm x'])
    expect(reads("( sh ) <<< 'rm x'")).toEqual(['sh', 'rm x'])
    expect(reads("while true; do bash; done <<< 'rm x'")).toEqual(['true', 'bash', 'rm x'])
    expect(reads("f() { sh; } <<< 'rm x'; f")).toEqual(['sh', 'rm x', 'f'])
    expect(reads("bash -c bash <<< 'rm x'")).toEqual(['bash -c bash', 'bash', 'rm x'])
    expect(reads("eval sh <<< 'rm x'")).toEqual(['eval sh', 'sh', 'rm x'])
    expect(reads("{ bash /dev/fd/3; } 3<<< 'rm x'")).toEqual(['bash /dev/fd/3', '?bash /dev/fd/3'])
    expect(reads("{ cat; } <<< 'rm x'")).toEqual(['cat'])
  })

  it('reads exec with a here-document and no command as unknown: it feeds every later command', () => {
    expect(reads("exec <<< 'rm x'; bash")).toEqual(['exec', '?exec', 'bash', '?bash'])
    expect(reads('exec 3<<< x')).toEqual(['exec', '?exec'])
    expect(reads('exec 2>/dev/null')).toEqual(['exec'])
  })

  it('does not unwrap commands it does not know (their arguments stay arguments)', () => {
    expect(reads("ssh host 'rm x'")).toEqual(['ssh host rm x'])
    expect(reads("python3 -c 'import shutil'")).toEqual(['python3 -c import shutil'])
  })
})
