import { describe, expect, it } from 'vitest'
import { reads, runs, unknown } from './reads.js'

describe('what ssh, scp, sftp and rsync run on this machine', () => {
  it('reads ProxyCommand, LocalCommand and KnownHostsCommand as shell source, in every spelling of -o', () => {
    for (const line of ["ssh -o ProxyCommand='rm x' host", "ssh -oProxyCommand='rm x' host", "ssh -o 'proxycommand rm x' host",
      "ssh -o 'ProxyCommand = rm x' host", "ssh -o ' PROXYCOMMAND==rm x' host", "ssh -vo ProxyCommand='rm x' host",
      "ssh -4vvoProxyCommand='rm x' host", "ssh -o PermitLocalCommand=yes -o LocalCommand='rm x' host", "ssh -o KnownHostsCommand='rm x' host",
      "ssh host -o ProxyCommand='rm x'", "ssh -p 22 host -o ProxyCommand='rm x' uptime"]) {
      expect(runs(line)).toEqual([line, ['rm x']])
    }
    expect(runs("ssh -o 'ProxyCommand nc %h %p; rm x' host")).toEqual(["ssh -o 'ProxyCommand nc %h %p; rm x' host", ['nc %h %p', 'rm x']])
    expect(runs('ssh -o ProxyCommand=none host')).toEqual(['ssh -o ProxyCommand=none host', []])
  })

  it('leaves the command that runs on the other side, and values of options, alone', () => {
    for (const line of ["ssh host 'rm x'", "ssh host ls -o ProxyCommand='rm x'", "ssh -- host -o ProxyCommand='rm x'",
      "ssh -p 22 -i key -l me -J jump -L 80:h:80 -W h:22 -E log -S ctl -O check host 'rm x'", "ssh -i -oProxyCommand='rm x' host",
      'ssh -o ProxyJump=jump -o StrictHostKeyChecking=no host', 'ssh -F none host', 'ssh -F /dev/null host', 'ssh "me@$HOST" uptime',
      'ssh -- "$HOST" uptime', 'ssh host ls "$X"', 'ssh -V', 'scp -P 22 -r a host:b', 'scp ./*.txt host:', 'scp -- "$F" host:',
      'scp a -S rm host:', "rsync -av --rsync-path='sudo rm x' a host:", 'rsync -a ./*.c host:', 'rsync -a -- "$SRC/" host:',
      'rsync -a "src/$X" host:', "rsync -f '- *.o' --exclude -e a b", 'rsync --exclude=-e a b']) {
      expect(runs(line)).toEqual([line, []])
    }
  })

  it('reads as unknown a configuration file, an option that loads or runs what it cannot read, or a word that may be an option', () => {
    for (const line of ['ssh -F cfg host', 'ssh -o Include=cfg host', "ssh -o 'Match exec \"rm x\"' host", 'ssh -I lib.so host',
      'ssh -o PKCS11Provider=lib.so host', 'ssh -X -o XAuthLocation=/tmp/x host', "ssh -o '\"ProxyCommand\" rm x' host", 'ssh -o "$OPT" host',
      'ssh -o ProxyCommand="$P" host', 'ssh "$HOST" uptime', 'ssh host "$CMD"', 'ssh -i $KEY host', 'ssh -Z host', 'ssh * uptime',
      'scp -F cfg a host:', 'scp *.txt host:', 'scp "$F" host:', 'sftp host', 'sftp -b batch host', 'rsync *.c host:',
      'rsync -a "$SRC/" host:', 'rsync -e "$RSH" a host:', 'rsync --daemon --config=d.conf', 'rsync -Z a b']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads the programs scp and sftp run to connect, or as a local server', () => {
    expect(runs('scp -S rm a host:')).toEqual(['scp -S rm a host:', ['rm']])
    expect(runs('scp -rSrm a host:')).toEqual(['scp -rSrm a host:', ['rm']])
    expect(runs("scp -D 'rm x' a host:")).toEqual(["scp -D 'rm x' a host:", ['?rm x']])
    expect(runs("scp -o ProxyCommand='rm x' a host:")).toEqual(["scp -o ProxyCommand='rm x' a host:", ['rm x']])
    expect(reads("sftp -D 'rm x'")).toEqual(['sftp -D rm x', 'rm x', '?sftp -D rm x'])
    expect(reads("sftp -S rm -o ProxyCommand='rm x' host")).toEqual(['sftp -S rm -o ProxyCommand=rm x host', 'rm', 'rm x', '?sftp -S rm -o ProxyCommand=rm x host'])
  })

  it('reads the command of rsync -e and --rsh wherever it is, in a cluster or attached', () => {
    for (const line of ["rsync -e 'rm x' a host:", "rsync -avze 'rm x' a host:", "rsync -avze'rm x' a host:", "rsync -e='rm x' a host:",
      "rsync --rsh='rm x' a host:", "rsync --rsh 'rm x' a host:", "rsync a host: -e 'rm x'", "rsync -T /tmp -B 1024 -e 'rm x' a host:"]) {
      expect(runs(line)).toEqual([line, ['rm x']])
    }
    expect(runs('rsync -avzessh a host:')).toEqual(['rsync -avzessh a host:', ['ssh']])
    expect(runs("rsync -e 'ssh -o ProxyCommand=\"rm x\"' a host:")).toEqual(["rsync -e 'ssh -o ProxyCommand=\"rm x\"' a host:", ['ssh -o ProxyCommand=rm x', 'rm x']])
    expect(runs("rsync -a -- -e 'rm x' host:")).toEqual(["rsync -a -- -e 'rm x' host:", []])
  })
})

describe('env -S', () => {
  it('reads a split string of plain words as env arguments; one with quotes, escapes or $ is unknown', () => {
    expect(runs("env -S 'rm x'")).toEqual(["env -S 'rm x'", ['rm x']])
    expect(runs("env -S'rm x'")).toEqual(["env -S'rm x'", ['rm x']])
    expect(runs("env --split-string='rm  x'")).toEqual(["env --split-string='rm  x'", ['rm x']])
    expect(runs("env -iS 'A=1 rm x' y")).toEqual(["env -iS 'A=1 rm x' y", ['=rm x y']])
    expect(runs("env -u HOME -S '-i rm x'")).toEqual(["env -u HOME -S '-i rm x'", ['rm x']])
    for (const line of ["env -S \"rm 'a b'\"", "env -S 'rm $X'", 'env -S "$S"', 'env -S', "env -S '--bogus rm x'"]) expect(unknown(line)).toEqual([line, true])
  })
})
