// One life of a subject: a child process that prints `ready` when it starts (or resumes) its
// run, `body <item>` per tool body started, and `done <report>` at the end.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'

/**
 * Runs `node <args>` once. With a kill point `{ after, delayMs }` the child is sent SIGKILL
 * `delayMs` after its `after`-th tool body started (after `ready` for 0). Resolves
 * `{ killed: true }`, or `{ killed: false, report }` when the run ended first or there was no
 * point; rejects when the child fails on its own (its stderr in the message).
 */
export function runLife(args, point) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
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
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (killed && signal === 'SIGKILL') resolve({ killed: true })
      else if (code === 0 && report) resolve({ killed: false, report })
      else reject(new Error(`node ${args.join(' ')} ended ${signal ?? `with code ${code}`} on its own:\n${stderr.trim()}`))
    })
  })
}
