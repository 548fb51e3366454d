import { describe, expect, it } from 'vitest'
import { readCommandLine } from '../../src/shell/read.js'
import { parseBash } from '../../src/shell/parser.js'

/** The commands a line reads as, `?` before a name known only at run time. */
function reads(line: string): string[] {
  const reading = readCommandLine(line, parseBash)
  if (!reading.ok) throw new Error(reading.reason)
  return reading.commands.map((c) => `${c.known ? '' : '?'}${c.words.join(' ')}`)
}

describe('wrappers', () => {
  it('reads the command a wrapper runs after its own options and settings', () => {
    expect(reads('env -u HOME --chdir=/tmp A=1 rm x')).toEqual(['env -u HOME --chdir=/tmp A=1 rm x', 'rm x'])
    expect(reads('sudo -E -u root -g wheel HOME=/root rm x')).toEqual(['sudo -E -u root -g wheel HOME=/root rm x', 'rm x'])
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

  it('reads the script of a shell from -c or from a here-document, and not a script file', () => {
    expect(reads("bash -e -o pipefail -c 'rm x' name arg")).toEqual(['bash -e -o pipefail -c rm x name arg', 'rm x'])
    expect(reads("sh -s <<'EOF'\nrm x\nEOF")).toEqual(['sh -s', 'rm x'])
    expect(reads('bash script.sh')).toEqual(['bash script.sh'])
    expect(reads('curl -s example.com | sh')).toEqual(['curl -s example.com', 'sh'])
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
    expect(reads('runuser -u me -- ls')).toEqual(['runuser -u me -- ls'])
    expect(reads("watch 'ls; rm x'")).toEqual(['watch ls; rm x', 'ls', 'rm x'])
    expect(reads('watch -x rm x')).toEqual(['watch -x rm x', 'rm x'])
  })

  it('does not unwrap commands it does not know (their arguments stay arguments)', () => {
    expect(reads("ssh host 'rm x'")).toEqual(['ssh host rm x'])
    expect(reads("python3 -c 'import shutil'")).toEqual(['python3 -c import shutil'])
  })
})
