// One life of a subject: a child process that loads its modules, prints `loaded`, waits for
// `go` on stdin (stdin closed instead: it exits at once, having opened nothing), then prints
// `ready`, `body <item>` per tool body started, and `done <report>`. The parent starts the
// next life while the current one runs, so that loading modules (most of a life's time on a
// busy machine) overlaps with the run; a life touches its store only after `go`, which the
// parent sends once the previous life is dead.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * Starts `node <args>` and returns `run(point)`, which sends `go` and resolves `{ killed: true }`
 * when the child was SIGKILLed at `point` (`{ after, delayMs }`) or `{ killed: false, report }`
 * when it ran to its end (no point, or the run ended first); it rejects when the child fails on
 * its own (its stderr in the message). `discard()` lets an unused life exit.
 */
export function spawnLife(args) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] })
  let point
  let bodies = 0
  let report
  let killed = false
  let timer
  let stderr = ''
  const arm = () => {
    timer = setTimeout(() => {
      killed = true
      child.kill('SIGKILL')
    }, point.delayMs)
  }
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-4000) })
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready' && point?.after === 0) arm()
    else if (line.startsWith('body ') && ++bodies === point?.after) arm()
    else if (line.startsWith('done ')) report = JSON.parse(line.slice(5))
  })
  const ended = new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (killed && signal === 'SIGKILL') resolve({ killed: true })
      else if (code === 0) resolve({ killed: false, report })
      else reject(new Error(`node ${args.join(' ')} ended ${signal ?? `with code ${code}`} on its own:\n${stderr.trim()}`))
    })
  })
  return {
    async run(at) {
      point = at
      child.stdin.end('go\n')
      const life = await ended
      if (!life.killed && !life.report) throw new Error(`node ${args.join(' ')} exited without finishing its run:\n${stderr.trim()}`)
      return life
    },
    async discard() {
      child.stdin.end()
      await ended
    },
  }
}
