import { describe, expect, it } from 'vitest'
import { reads } from './reads.js'

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

  it('reads the command of every util-linux and coreutils wrapper, after options that take a value', () => {
    const runs = (line: string, command = 'rm x') => expect([line, reads(line).at(-1)]).toEqual([line, command])
    runs('taskset -a 0x3 rm x')
    runs('taskset --cpu-list 0-3 rm x')
    runs('chrt -f 10 rm x')
    runs('chrt --deadline -T 100 -P 200 -D 200 0 rm x')
    runs('chrt --other rm x')
    runs('flock -s -E 3 --timeout 5 /tmp/lk rm x')
    runs('flock --nb /tmp/lk --command "rm x"')
    runs('prlimit -c -n=10 --cpu=5 --stack rm x')
    runs('prlimit -o RESOURCE rm x')
    runs('setpriv --reuid 1000 --regid=1000 --clear-groups -- rm x')
    runs('unshare -U -m=/proc/1/ns/mnt --propagation private --map-root-user rm x')
    runs('unshare --mount-proc=/proc -f --kill-child=SIGTERM -R /jail rm x')
    runs('nsenter --target 1 -m -u -i -n -p -r/jail -w rm x')
    runs('ionice -P 4 -c2 -n 7 rm x')
    runs('setarch x86_64 -R --3gb rm x')
    runs('linux32 --addr-no-randomize rm x')
    runs('choom --adjust=-100 rm x')
    runs('uclampset -m 100 -M 512 -R rm x')
    runs('script -a -T timing.log -E never -c "rm x" out.log')
    runs('script --log-out=o.log --command="rm x"')
    runs('runcon -t unconfined_t -r system_r rm x')
    runs('runcon system_u:system_r:x_t:s0 rm x')
    runs('schedtool -B -a 0x1 -e rm x')
    runs('numactl --interleave=all -N 0 -C 1 rm x')
    runs('cgexec -g cpu,memory:/grp --sticky rm x')
    runs('systemd-run --user -p MemoryMax=1G -E A=1 --unit=x --wait rm x')
    runs('firejail --private=/tmp/x --net=none --quiet rm x')
    runs('fakeroot -s state -i state -- rm x')
    runs('strace -ff -e trace=file -o log -s 100 rm x')
    runs('ltrace -f -o log -n 2 rm x')
    runs('valgrind --tool=memcheck --leak-check=full -q rm x')
    runs('pkexec --user root rm x')
    runs('dbus-run-session --config-file=x.conf -- rm x')
    runs('ssh-agent -a sock -t 60 rm x')
    runs('capsh --drop=cap_net_raw == --print', 'capsh --print')
    runs("sg users -c 'rm x'")
    runs("sg users 'rm x'")
    runs('sudo chrt -f 1 taskset 1 nice rm x')
    runs('eatmydata rm x')
    runs('chronic -e rm x')
    runs('ifne -n rm x')
    runs('unbuffer -p rm x')
    runs('proxychains4 -q -f p.conf rm x')
    runs('torsocks -i -P 9050 rm x')
  })

  it('reads a wrapper that starts a shell when it is given no command as a shell reading standard input', () => {
    for (const line of ['unshare -r', 'nsenter -t 1 -a', 'chroot /jail', 'setarch x86_64', 'linux64', 'fakeroot', 'firejail --private', 'newgrp -', 'newgrp wheel', 'newgrp - wheel',
      'pkexec', 'sudo -s', 'sudo --login', 'doas -s', 'su', 'su - root', 'script -q /dev/null', 'sg users', 'systemd-run --shell']) {
      expect([line, reads(`${line} <<< 'rm x'`).at(-1)]).toEqual([line, 'rm x'])
      expect([line, reads(`echo 'rm x' | ${line}`).at(-1)]).toEqual([line, `?${line}`])
    }
    expect(reads('sudo -l')).toEqual(['sudo -l'])
    expect(reads('flock 9')).toEqual(['flock 9'])
    expect(reads('taskset -p 1')).toEqual(['taskset -p 1'])
  })

  it('reads such a wrapper as unknown when an option is not one it lists, or a word before the command is known only at run time', () => {
    for (const line of ['taskset -z 1 rm x', 'chrt --bogus 0 rm x', 'flock -c "rm x" lk', 'prlimit --nofile=$N rm x', 'setpriv -x rm x',
      'unshare --bogus rm x', 'nsenter -t $PID rm x', 'script -Z -c "rm x"', 'script -c "$CMD"', 'setarch $ARCH rm x', 'sg $G "rm x"',
      'capsh --shell=/bin/rm -- x', 'capsh -x', 'runcon $CTX rm x', 'schedtool -Q -e rm x', 'firejail -c rm x', 'valgrind -x rm x',
      'strace --bogus rm x', 'ionice -x rm x', 'choom -n $N rm x', 'parallel rm ::: x', 'echo rm x | parallel']) {
      expect([line, reads(line).some((c) => c.startsWith('?'))]).toEqual([line, true])
    }
  })
})
