import { describe, expect, it } from 'vitest'
import { reads, runs, unknown } from './reads.js'

describe('what git runs', () => {
  it('reads configuration and programs set before the subcommand as unknown, and skips the values of global options', () => {
    for (const line of ["git -c core.pager='rm x' log", "git -C dir -c alias.x='!rm x' x", 'git --config-env=core.pager=P log',
      'git --exec-path=/tmp/bin pull', 'git $SUB', 'git "$OPT" status', 'git -C $DIR status', 'git --bogus status']) {
      expect(unknown(line)).toEqual([line, true])
    }
    for (const line of ['git status', 'git -C dir status', 'git -C -c status', 'git --git-dir .git --work-tree . rebase main',
      'git --git-dir=.git --namespace=n log', 'git -p --no-pager --bare log', 'git --exec-path', 'git --help rebase', 'git log "$X"',
      'git config --get-urlmatch http https://x', 'git -C "$DIR" status', 'git mergetool -t meld', 'git submodule update --init']) {
      expect(runs(line)).toEqual([line, []])
    }
  })

  it('reads the commands of rebase --exec, in every spelling, and not -X', () => {
    for (const line of ["git rebase -x 'rm x' main", "git rebase --exec='rm x' main", "git rebase --exec 'rm x'", "git rebase -ix 'rm x' main",
      "git rebase -irx 'rm x' main", "git rebase -x'rm x' main", "git rebase --exe 'rm x'", "git rebase main -x 'rm x'",
      "git -C dir --git-dir=.git rebase --onto a b -x 'rm x'"]) {
      expect(runs(line)).toEqual([line, ['rm x']])
    }
    expect(runs('git rebase -ixrm main')).toEqual(['git rebase -ixrm main', ['rm']])
    for (const line of ['git rebase -X theirs main', 'git rebase -Xours -s recursive main', 'git rebase -i main', 'git rebase -sx main',
      'git rebase --onto "$B" main', 'git rebase --no-exec main', "git rebase main -- -x 'rm x'"]) {
      expect(runs(line)).toEqual([line, []])
    }
    for (const line of ['git rebase "$B"', 'git rebase --onto $B main', 'git rebase *']) expect(unknown(line)).toEqual([line, true])
  })

  it('reads the current branch\'s name as no option (git never lets one start with -), any other substitution as maybe one', () => {
    for (const line of ['git push -u origin "$(git branch --show-current)"', 'git push origin "$(git rev-parse --abbrev-ref HEAD)"',
      'git pull origin "$(git symbolic-ref --short HEAD)"', 'git push origin "$(git branch --show-current):main"']) {
      expect([line, reads(line).filter((c) => c.startsWith('?'))]).toEqual([line, []])
    }
    for (const line of ['git push origin "$(echo --receive-pack=x)"', 'git push origin $(git branch --show-current)']) {
      expect(unknown(line)).toEqual([line, true])
    }
  })

  it('reads bisect run as a command and submodule foreach as shell source', () => {
    expect(runs('git bisect run rm x')).toEqual(['git bisect run rm x', ['rm x']])
    expect(runs("git bisect run sh -c 'rm x'")).toEqual(["git bisect run sh -c 'rm x'", ['sh -c rm x', 'rm x']])
    expect(runs("git submodule foreach 'rm x'")).toEqual(["git submodule foreach 'rm x'", ['rm x']])
    expect(runs("git submodule --quiet foreach --recursive 'git clean -fdx; rm x'")).toEqual(["git submodule --quiet foreach --recursive 'git clean -fdx; rm x'", ['git clean -fdx', 'rm x']])
    expect(runs('git submodule foreach -- rm x')).toEqual(['git submodule foreach -- rm x', ['rm x']])
    for (const line of ['git bisect start', 'git bisect good', 'git submodule status']) expect(runs(line)).toEqual([line, []])
    for (const line of ['git bisect "$X" rm x', 'git submodule "$S" rm x', 'git submodule foreach --bogus rm x']) expect(unknown(line)).toEqual([line, true])
  })

  it('reads difftool -x, grep -O, the filters of filter-branch and the programs of the transports and send-email', () => {
    for (const line of ["git difftool -x 'rm x'", "git difftool -yx 'rm x' HEAD", "git difftool --extcmd='rm x' HEAD", "git difftool --ext 'rm x'",
      "git filter-branch --tree-filter 'rm x' HEAD", "git filter-branch -f --setup 'rm x' HEAD", "git grep -O'rm x' foo",
      "git grep --open-files-in-pager='rm x' foo", "git clone -u 'rm x' /src dst", "git clone --upload-pack='rm x' /src",
      "git fetch --upload-pack 'rm x' /src", "git pull --upload-pack='rm x' /src", "git ls-remote --upload-pack='rm x' /r",
      "git push --receive-pack='rm x' /dst", "git push --exec='rm x' /dst", "git archive --remote=/r --exec='rm x' HEAD",
      "git send-email --to-cmd='rm x' a.patch", "git send-email -cc-cmd 'rm x' a.patch"]) {
      expect(runs(line)).toEqual([line, ['rm x']])
    }
    expect(runs("git filter-branch --index-filter 'git rm --cached x' --msg-filter cat -- --all"))
      .toEqual(["git filter-branch --index-filter 'git rm --cached x' --msg-filter cat -- --all", ['git rm --cached x', 'cat']])
    expect(runs('git send-email --to a@b --smtp-server=/bin/rm a.patch')).toEqual(['git send-email --to a@b --smtp-server=/bin/rm a.patch', ['rm']])
    for (const line of ['git difftool -t vimdiff', 'git filter-branch --subdirectory-filter sub', 'git grep -O foo', 'git grep -e -Orm x',
      'git clone -b main --depth 1 url', 'git fetch -u origin', 'git push -o ci.skip origin', 'git send-email --to a@b --smtp-server smtp.x.org a.patch']) {
      expect(runs(line)).toEqual([line, []])
    }
    for (const line of ["git clone -c core.sshCommand='rm x' host:r", "git clone --config core.fsmonitor='rm x' host:r", 'git clone --template=t host:r',
      'git send-email *.patch', 'git grep "$OPT" foo', "git filter-branch \"$F\" 'rm x'"]) {
      expect(unknown(line)).toEqual([line, true])
    }
  })
})
