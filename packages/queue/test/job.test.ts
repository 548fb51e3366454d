import { describe, expect, it } from 'vitest'
import { jobDataProblem } from '../src/job.js'

describe('jobDataProblem: what a worker accepts as a run', () => {
  it('accepts { session, task } and { session, continuation: true }', () => {
    expect(jobDataProblem({ session: 's', task: 'go' })).toBeUndefined()
    expect(jobDataProblem({ session: 's', continuation: true })).toBeUndefined()
  })

  it('refuses a continuation with a task, a continuation that is not true, and a run without either', () => {
    expect(jobDataProblem({ session: 's', continuation: true, task: 'go' })).toBe('a continuation has no "task": it adds no message')
    expect(jobDataProblem({ session: 's', continuation: 'yes' })).toBe('"continuation" must be true when present')
    expect(jobDataProblem({ session: 's' })).toBe('"task" must be a string')
  })
})
