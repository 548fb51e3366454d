// A hostile local process for the confinement race tests: in a tight loop it swaps the folder
// `<root>/sub` for a symbolic link to a folder outside the root and back, each step an atomic
// rename. Run as `node racer.mjs <root> <outside>` with an IPC channel; it sends 'started'
// once the loop runs, and on the message 'stop' puts the folder back, sends the number of
// swaps it made, and exits. A folder a tool creates at `sub` while it is missing is moved
// aside (to `stray-<n>`), so the loop keeps going.
import { renameSync, symlinkSync } from 'node:fs'
import path from 'node:path'

const [root, outside] = process.argv.slice(2)
const sub = path.join(root, 'sub')
const parked = path.join(root, 'sub.parked')
const link = path.join(root, 'sub.link')
symlinkSync(outside, link)

let swaps = 0
let strays = 0
let stopping = false

/**
 * Renames `from` to `to`. A tool may create a folder at `to` at any moment, even between two
 * tries, so whatever is in the way is moved aside and the rename tried again, up to 100 times.
 */
function move(from, to) {
  for (let attempt = 1; ; attempt++) {
    try {
      renameSync(from, to)
      return
    } catch (error) {
      if (attempt === 100) throw error
      try {
        renameSync(to, path.join(root, `stray-${++strays}`))
      } catch {
        // Gone already, or moved by the next try: either way, try the rename again.
      }
    }
  }
}

function burst() {
  if (stopping) return
  for (let i = 0; i < 200; i++) {
    move(sub, parked) // sub is missing
    move(link, sub) // sub leads outside
    move(sub, link) // sub is missing
    move(parked, sub) // sub is the folder again
    swaps++
  }
  setImmediate(burst)
}

process.on('message', (message) => {
  if (message !== 'stop') return
  stopping = true
  process.send({ swaps }, () => process.exit(0))
})
process.send('started')
burst()
