import { open } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { explain, NOT_FOUND, WRONG_TYPE } from '../src/index.js'

/** The error Node gives for opening `target` (which must fail). */
async function failureOf(target: string, flags: string): Promise<unknown> {
  return open(target, flags).then((handle) => handle.close(), (error: unknown) => error)
}

describe('explain', () => {
  it('gives the codes the model can act on, naming the path as given', async () => {
    const notFolder = await failureOf('/proc/self/exe/x', 'r')
    expect(() => explain(notFolder, 'a/x')).toThrow(expect.objectContaining({ code: WRONG_TYPE, message: 'a parent of "a/x" is not a directory' }))
    expect(() => explain(Object.assign(new Error('ENXIO: no such device or address, open \'/proc/self/fd/9/pipe\''), { code: 'ENXIO' }), 'pipe'))
      .toThrow(expect.objectContaining({ code: WRONG_TYPE, message: '"pipe" is a FIFO, socket or device, not a regular file' }))
    expect(() => explain(Object.assign(new Error('gone'), { code: 'ENOENT' }), 'a.txt'))
      .toThrow(expect.objectContaining({ code: NOT_FOUND, message: '"a.txt" does not exist' }))
  })

  it('keeps the code of any other system error but never shows the internal path it opened', async () => {
    const error = Object.assign(new Error('EACCES: permission denied, open \'/proc/self/fd/18/.x.rein-tmp\''),
      { code: 'EACCES', syscall: 'open', errno: -13, path: '/proc/self/fd/18/.x.rein-tmp' })
    expect(() => explain(error, 'a.txt')).toThrow(expect.objectContaining({ code: 'EACCES', message: 'EACCES: permission denied, open "a.txt"' }))
    expect(() => explain(error, 'a.txt', 'making the new file beside'))
      .toThrow(expect.objectContaining({ code: 'EACCES', message: 'EACCES: permission denied, making the new file beside "a.txt"' }))
  })

  it('rethrows what is not a system error as it is', () => {
    const abort = new DOMException('stopped', 'AbortError')
    expect(() => explain(abort, 'a.txt')).toThrow(abort)
  })
})
