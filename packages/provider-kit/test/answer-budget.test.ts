/**
 * The bounds of one streamed answer: by default as many characters as a body read whole
 * (`MAX_BODY_BYTES`) and `MAX_ANSWER_PARTS` tool calls or blocks; one more is a bad response that
 * names the server and the limit. Counted by length, so no test needs a 16 MiB string.
 */
import { describe, expect, it } from 'vitest'
import { AnswerBudget } from '../src/answer-budget.js'
import { PROVIDER_BAD_RESPONSE } from '../src/codes.js'
import { MAX_ANSWER_PARTS, MAX_BODY_BYTES } from '../src/limits.js'
import { createRedactor } from '../src/secrets.js'

const site = { baseURL: 'http://127.0.0.1:1', model: 'm', redact: createRedactor([]) }

describe('AnswerBudget', () => {
  it('allows as many characters as a body read whole, and fails one past them', () => {
    const budget = new AnswerBudget(site)
    budget.keep(MAX_BODY_BYTES - 1)
    budget.keep(1)
    expect(() => budget.keep(1)).toThrow(expect.objectContaining({
      code: PROVIDER_BAD_RESPONSE,
      message: `http://127.0.0.1:1 streamed an answer of more than ${MAX_BODY_BYTES} characters (its text and tool calls together), far more than any model answer; reading stopped there`,
    }))
  })

  it('allows MAX_ANSWER_PARTS tool calls or blocks, and fails the next one', () => {
    const budget = new AnswerBudget(site)
    for (let i = 0; i < MAX_ANSWER_PARTS; i++) budget.part()
    expect(() => budget.part()).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE, message: expect.stringContaining(`more than ${MAX_ANSWER_PARTS} tool calls or content blocks`) }))
  })

  it('takes lower limits', () => {
    const budget = new AnswerBudget(site, { maxSize: 10, maxParts: 1 })
    budget.keep(4)
    budget.keep(6)
    expect(() => budget.keep(1)).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE }))
    budget.part()
    expect(() => budget.part()).toThrow(expect.objectContaining({ code: PROVIDER_BAD_RESPONSE }))
  })
})
