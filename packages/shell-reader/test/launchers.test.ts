import { describe, expect, it } from 'vitest'
import { reads, unknown } from './reads.js'

/** The last command a line reads as: what its innermost wrapper runs. */
const last = (line: string) => [line, reads(line).at(-1)]

describe('launchers of the fourth review', () => {
  it('reads macOS arch after its architecture options, with -e as settings; Linux arch with no operand as itself', () => {
    expect(last('arch -arm64 rm x')).toEqual(['arch -arm64 rm x', 'rm x'])
    expect(last('arch -32 -arch x86_64 -c -d PATH rm x')).toEqual(['arch -32 -arch x86_64 -c -d PATH rm x', 'rm x'])
    expect(last('arch -e LD_PRELOAD=x.so git status')).toEqual(['arch -e LD_PRELOAD=x.so git status', '=git status'])
    expect(last('arch rm x')).toEqual(['arch rm x', 'rm x'])
    expect(last('arch -- rm x')).toEqual(['arch -- rm x', 'rm x'])
    expect(reads('arch')).toEqual(['arch'])
    expect(unknown('arch $A rm x')).toEqual(['arch $A rm x', true])
    expect(unknown('arch -arch "$A" rm x')).toEqual(['arch -arch "$A" rm x', true])
  })

  it('reads bwrap after options of one, two or three values, with --setenv as a setting', () => {
    expect(last('bwrap --unshare-all --bind /a /b --dev /dev --chmod 700 /b --file 3 /etc/x --perms 0600 --tmpfs /tmp rm x'))
      .toEqual(['bwrap --unshare-all --bind /a /b --dev /dev --chmod 700 /b --file 3 /etc/x --perms 0600 --tmpfs /tmp rm x', 'rm x'])
    expect(last('bwrap --overlay-src /a --overlay /rw /work /x -- rm x')).toEqual(['bwrap --overlay-src /a --overlay /rw /work /x -- rm x', 'rm x'])
    expect(last('bwrap --overlay /rw /work /x rm x')).toEqual(['bwrap --overlay /rw /work /x rm x', 'rm x'])
    expect(last('bwrap --setenv LD_PRELOAD x.so git status')).toEqual(['bwrap --setenv LD_PRELOAD x.so git status', '=git status'])
    expect(last('bwrap --setenv PS4 \'$(rm x)\' bash -xc true').slice(1)).toEqual(['=true'])
    expect(reads('bwrap --setenv PS4 \'$(rm x)\' bash -xc true')).toContain('?=PS4=$(rm x)')
    expect(reads('bwrap --ro-bind / /')).toEqual(['bwrap --ro-bind / /'])
    for (const line of ['bwrap --args 3 rm x', 'bwrap --bind=/ / rm x', 'bwrap -b / / rm x', 'bwrap --bind "$S" / rm x', 'bwrap $OPTS rm x']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads xvfb-run after its short and long options', () => {
    expect(last('xvfb-run --auto-servernum --server-args="-screen 0 1x1x8" -e err.log -w 1 rm x')).toEqual(['xvfb-run --auto-servernum --server-args="-screen 0 1x1x8" -e err.log -w 1 rm x', 'rm x'])
    expect(last('xvfb-run -n 5 -f auth -l -p MIT-MAGIC-COOKIE-1 rm x')).toEqual(['xvfb-run -n 5 -f auth -l -p MIT-MAGIC-COOKIE-1 rm x', 'rm x'])
    expect(unknown('xvfb-run --bogus rm x')).toEqual(['xvfb-run --bogus rm x', true])
  })

  it('reads the command screen starts; a configuration file, a shell, a screen command or a reattach is unknown', () => {
    expect(last('screen -dm rm x')).toEqual(['screen -dm rm x', 'rm x'])
    expect(last('screen -d -m -S job -L -t title rm x')).toEqual(['screen -d -m -S job -L -t title rm x', 'rm x'])
    expect(last('screen -D -m -h 1000 -- rm x')).toEqual(['screen -D -m -h 1000 -- rm x', 'rm x'])
    expect(last('screen rm x')).toEqual(['screen rm x', 'rm x'])
    for (const line of ['screen', 'screen -ls', 'screen -list', 'screen -wipe', 'screen -r', 'screen -dmS job']) expect(reads(line)).toEqual([line])
    for (const line of ['screen -c rc rm x', 'screen -s /bin/rm', 'screen -S job -X stuff "rm x"', 'screen -S job -Q windows', 'screen -r job',
      'screen -d job', 'screen -x job', 'screen -dmS $N rm x', 'screen -Z rm x']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads the shell commands of tmux; typed keys, other commands and formats that run commands are unknown', () => {
    expect(reads("tmux new -d -s job 'ls; rm x'")).toEqual(['tmux new -d -s job ls; rm x', 'ls', 'rm x'])
    expect(last('tmux new-session -d -s job rm x')).toEqual(['tmux new-session -d -s job rm x', 'rm x'])
    expect(reads("tmux new-window -n w 'rm x' \\; split-window -h 'rm y' \\; respawnp -k -t 1 'rm z'"))
      .toEqual(['tmux new-window -n w rm x ; split-window -h rm y ; respawnp -k -t 1 rm z', 'rm x', 'rm y', 'rm z'])
    expect(last("tmux run-shell -b 'rm x'")).toEqual(["tmux run-shell -b 'rm x'", 'rm x'])
    expect(last("tmux -L sock -c 'rm x'")).toEqual(["tmux -L sock -c 'rm x'", 'rm x'])
    for (const line of ['tmux', 'tmux ls', 'tmux attach -t job', 'tmux kill-session -t job', 'tmux new -d -s job']) expect(reads(line)).toEqual([line])
    for (const line of ["tmux send-keys -t job 'rm x' Enter", "tmux if-shell true 'run rm'", 'tmux -f conf.tmux', "tmux run -C 'new rm x'",
      "tmux display -p '#(rm x)'", 'tmux ls -F "#(rm x)"', 'tmux kill-session -t "$S" new rm x', 'tmux new-s rm x', 'tmux set -g default-command "rm x"',
      "tmux bind-key r run-shell 'rm x'", 'tmux source-file f', 'tmux new-session -Z rm x', 'tmux ls\\; new rm x']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads what npx, npm exec, pnpm exec and dlx, yarn exec and dlx, and bunx run', () => {
    expect(last('npx --yes -p cowsay cowsay hi')).toEqual(['npx --yes -p cowsay cowsay hi', 'cowsay hi'])
    expect(last('npx rm x')).toEqual(['npx rm x', 'rm x'])
    expect(last("npx --call='rm x'")).toEqual(["npx --call='rm x'", 'rm x'])
    expect(last("npm exec --package=a -c 'rm x'")).toEqual(["npm exec --package=a -c 'rm x'", 'rm x'])
    expect(last('npm x -- rm x')).toEqual(['npm x -- rm x', 'rm x'])
    expect(last('pnpm exec rm x')).toEqual(['pnpm exec rm x', 'rm x'])
    expect(reads("pnpm exec -c 'rm x; ls'")).toEqual(['pnpm exec -c rm x; ls', 'rm x', 'ls'])
    expect(last('pnpm dlx --package=a rm x')).toEqual(['pnpm dlx --package=a rm x', 'rm x'])
    expect(reads("yarn exec 'rm x; ls'")).toEqual(['yarn exec rm x; ls', 'rm x', 'ls'])
    expect(last('yarn dlx -p a rm x')).toEqual(['yarn dlx -p a rm x', 'rm x'])
    expect(last('bunx --bun rm x')).toEqual(['bunx --bun rm x', 'rm x'])
    expect(last('bun x rm x')).toEqual(['bun x rm x', 'rm x'])
    for (const line of ['npm test', 'npm run build', 'npm install', 'pnpm install', 'yarn build', 'bun run dev', 'pnpm exec']) expect(reads(line)).toEqual([line])
    for (const line of ['npx --bogus rm x', 'npm --prefix . exec rm x', 'npm $SUB rm x', 'npx -c "$CMD"', "echo 'rm x' | npx", 'pnpm -C . dlx rm x']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads the job at and batch read from a here-document; from a pipe or a file it is unknown', () => {
    expect(last("at now + 1 hour <<< 'rm x'")).toEqual(["at now + 1 hour <<< 'rm x'", 'rm x'])
    expect(last("at -m -q b -t 202501010000 <<< 'rm x'")).toEqual(["at -m -q b -t 202501010000 <<< 'rm x'", 'rm x'])
    expect(last('batch <<EOF\nrm x\nEOF')).toEqual(['batch <<EOF\nrm x\nEOF', 'rm x'])
    for (const line of ['at -l', 'at -r 3', 'at -d 3', 'at -c 3']) expect(reads(line)).toEqual([line])
    for (const line of ["echo 'rm x' | at now", 'at -f job.sh now', 'at now -f job.sh', 'at now < job.sh', "echo 'rm x' | batch", 'at "$T" <<< ls']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads find as unknown when a word it would read as a primary is known only at run time, or a glob that could be -exec', () => {
    for (const line of ['find . "$E" rm {} +', 'find "$D" -name x', 'find . $E', 'find . -name $N -delete', 'find . -exe? rm {} +',
      'find . -name x -exec echo $F \\;', 'find . -exec echo ? -exec rm x \\;']) {
      expect(unknown(line)).toEqual([line, true])
    }
    expect(reads('find . -name "$N" -newermt "$T" -fprintf out "$F" -delete')).toEqual(['find . -name $N -newermt $T -fprintf out $F -delete'])
    expect(reads('find "$HOME/src" -name *.ts')).toEqual(['find $HOME/src -name *.ts'])
    expect(reads('find "$HOME/src" "x$N" -exec ls "a$B" {} +')).toEqual(['find $HOME/src x$N -exec ls a$B {} +', 'ls a$B {}'])
    expect(reads('find . -exec grep "$P" {} +')).toEqual(['find . -exec grep $P {} +', 'grep $P {}'])
    // "$P" may be `;`: then the second -exec is find's own.
    expect(reads('find . -exec grep "$P" -exec rm x \\;')).toEqual(['find . -exec grep $P -exec rm x ;', 'grep $P -exec rm x', 'rm x'])
    expect(reads('find . -exec echo ";$X" -exec rm x \\;').at(-1)).toBe('rm x')
  })
})
