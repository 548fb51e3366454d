import { describe, expect, it } from 'vitest'
import { secretLeaks } from '@rein/testing'
import { reasonOf, safeCause, unavailable } from '../src/errors.js'
import { settingsOf } from '../src/options.js'

const settings = settingsOf({ connectionString: 'postgres://app:pa%2Fss@db.example:5432/app' }, 'test')

describe('errors show no secret', () => {
  it('cuts the password, in any form, and user:password@ from any URL out of the driver\'s reason', () => {
    const driver = new Error('failed for pa/ss, pa%2Fss and postgres://other:hunter2@elsewhere/db')
    expect(reasonOf(driver, settings)).toBe('failed for ***, *** and postgres://other:***@elsewhere/db')
  })

  it('keeps of the driver\'s error only its code and its cleaned message, as the cause', () => {
    const driver = Object.assign(new Error('auth failed for pa/ss'), { code: '28P01', client: { password: 'pa/ss' } })
    const cause = safeCause(driver, settings)
    expect(cause).toMatchObject({ message: 'auth failed for ***', code: '28P01' })
    expect(Object.keys(cause)).toEqual(['code'])
    expect(secretLeaks(unavailable(settings, 'a', driver), 'pa/ss', 'pa%2Fss')).toEqual([])
  })

  it('describes an AggregateError (a name with several addresses) by its errors', () => {
    const error = new AggregateError([new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')])
    expect(reasonOf(error, settings)).toBe('connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432')
  })
})
