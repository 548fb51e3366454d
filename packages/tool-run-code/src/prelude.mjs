// @ts-check
/**
 * The code evaluated inside each fresh QuickJS context before the model's code. It defines the
 * global `tools` (one method per callable tool; any other name rejects with a clear error) and
 * returns `finish` (the return value as exact JSON text, or a TypeError naming the first place
 * that is not JSON) and `describe` (an exception as text with its stack). It captures the
 * built-ins it uses first, so later changes to them by the code cannot alter these answers.
 * It also fixes the clock and the random numbers (DESIGN.md §7.2): `Date.now()`, `new Date()` and
 * `Date()` give the run's fixed instant, and `Math.random()` is a seeded generator (sfc32), so a
 * run made again after an approval asks the same things.
 * Nothing here is trusted by the host: every string it produces is parsed and checked there.
 */

/** Guest source: a function expression of `(call, namesJson, fixedJson)`; `call(name, argsJson)` is the host's. */
export const PRELUDE = String.raw`(function setup(call, namesJson, fixedJson) {
  'use strict'
  const { parse, stringify } = JSON
  const { keys, getPrototypeOf, freeze, create, defineProperty } = Object
  const isArray = Array.isArray
  const objectPrototype = Object.prototype
  const BaseError = Error
  const BaseTypeError = TypeError
  const reject = (error) => Promise.reject(error)
  const names = parse(namesJson)
  const fixed = parse(fixedJson)

  // The clock: one instant for the whole run. Date.prototype keeps its methods; its constructor
  // is this function, so no reachable Date constructor reads the host's clock.
  const RealDate = Date
  const clock = fixed.clock
  const FixedDate = function Date(...args) {
    if (new.target === undefined) return new RealDate(clock).toString()
    const date = args.length === 0 ? new RealDate(clock) : new RealDate(...args)
    if (new.target !== FixedDate) Object.setPrototypeOf(date, new.target.prototype)
    return date
  }
  defineProperty(FixedDate, 'prototype', { value: RealDate.prototype, writable: false, enumerable: false, configurable: false })
  defineProperty(FixedDate, 'length', { value: 7, configurable: true })
  FixedDate.now = function now() { return clock }
  FixedDate.parse = RealDate.parse
  FixedDate.UTC = RealDate.UTC
  defineProperty(RealDate.prototype, 'constructor', { value: FixedDate, writable: true, enumerable: false, configurable: true })
  defineProperty(globalThis, 'Date', { value: FixedDate, writable: true, enumerable: false, configurable: true })

  // The random numbers: sfc32 seeded with four words from the host (the call's idempotency key).
  let a = fixed.seed[0] | 0, b = fixed.seed[1] | 0, c = fixed.seed[2] | 0, d = fixed.seed[3] | 0
  for (let i = 0; i < 12; i++) next()
  function next() {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return (t >>> 0) / 4294967296
  }
  defineProperty(Math, 'random', { value: function random() { return next() }, writable: true, enumerable: false, configurable: true })

  // The exact JSON text of value, or a TypeError naming the first part that is not JSON.
  function json(value, label, path, open) {
    const where = label + path
    switch (typeof value) {
      case 'string': return stringify(value)
      case 'boolean': return value ? 'true' : 'false'
      case 'number':
        if (value - value === 0) return stringify(value)
        throw new BaseTypeError(where + ': ' + value + ' is not a JSON number')
      case 'object': {
        if (value === null) return 'null'
        for (let i = 0; i < open.length; i++) {
          if (open[i] === value) throw new BaseTypeError(where + ': circular reference')
        }
        open[open.length] = value
        let out
        if (isArray(value)) {
          out = '['
          for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + json(value[i], label, path + '/' + i, open)
          out += ']'
        } else {
          const proto = getPrototypeOf(value)
          if (proto !== objectPrototype && proto !== null) {
            const kind = typeof proto.constructor === 'function' && proto.constructor.name || 'object'
            throw new BaseTypeError(where + ': a ' + kind + ' is not plain JSON; use plain objects, arrays, strings, numbers, booleans and null')
          }
          const own = keys(value)
          out = '{'
          for (let i = 0; i < own.length; i++) {
            out += (i ? ',' : '') + stringify(own[i]) + ':' + json(value[own[i]], label, path + '/' + own[i], open)
          }
          out += '}'
        }
        open.length = open.length - 1
        return out
      }
      default:
        throw new BaseTypeError(where + ': ' + typeof value + ' is not JSON')
    }
  }

  async function invoke(name, args) {
    // Made before the first await, so its stack still holds the code's line that made the call.
    const site = new BaseError()
    if (args === undefined) args = {}
    if (typeof args !== 'object' || args === null || isArray(args)) {
      throw new BaseTypeError('tools.' + name + '(args): args must be one object of arguments, e.g. tools.' + name + '({ ... })')
    }
    const reply = parse(await call(name, json(args, 'tools.' + name + ' arguments', '', [])))
    if (reply.ok) return reply.value
    const error = new BaseError(reply.text)
    error.name = 'ToolError'
    error.code = reply.code
    error.tool = name
    error.stack = site.stack
    throw error
  }

  const listed = names.length ? names.join(', ') : '(none)'
  const callable = create(null)
  for (let i = 0; i < names.length; i++) {
    const name = names[i]
    callable[name] = (args) => invoke(name, args)
  }
  freeze(callable)
  const tools = new Proxy(callable, {
    get(target, key) {
      if (typeof key !== 'string') return undefined
      if (key in target) return target[key]
      if (key === 'then' || key === 'toJSON') return undefined
      return () => {
        const error = new BaseTypeError('tools.' + key + ' is not a tool run_code can call; callable tools: ' + listed)
        error.code = 'NOT_CALLABLE'
        return reject(error)
      }
    },
  })
  defineProperty(globalThis, 'tools', { value: tools, enumerable: false, writable: false, configurable: false })

  function finish(value) {
    return value === undefined ? 'null' : json(value, 'value', '', [])
  }

  function describe(error) {
    try {
      if (error instanceof BaseError) {
        const head = String(error.name) + ': ' + String(error.message)
        const stack = typeof error.stack === 'string' ? error.stack : ''
        // The code's own frames only (not the wrapper's call), at most eight of them.
        const own = stack.split('\n').filter((line) => line.includes('run_code.js') && !line.includes('<eval>'))
        let frames = own.slice(0, 8).join('\n')
        if (own.length > 8) frames += '\n    ... ' + (own.length - 8) + ' more frames'
        return frames ? head + '\n' + frames : head
      }
      if (typeof error === 'string') return 'a string: ' + error
      return 'a non-Error value: ' + String(stringify(error))
    } catch (failure) {
      return 'an exception that cannot be described'
    }
  }

  return { finish, describe }
})`
