/**
 * Unforgeable marks on objects the kernel built and checked itself, so that a later stage takes
 * them as they are instead of reading them again. A mark is a private class field stamped onto
 * the object (a base class whose constructor returns the object it is given): code outside this
 * module can neither read nor forge one, it does not survive `structuredClone` or show through
 * a proxy, and it costs the garbage collector nothing. Stamp an object before freezing it.
 */

/** Lets a subclass's private field be defined on any object. */
class Stamp {
  constructor(target: object) {
    return target as Stamp
  }
}

/** A kind of mark: `add` stamps it onto an object (once), `has` tells whether it is there. */
export interface Mark {
  add<T extends object>(target: T): T
  has(value: object): boolean
}

/** A new kind of mark, distinct from every other: each call makes a class with its own private field. */
function markKind(): Mark {
  return class extends Stamp {
    #mark = true

    static add<T extends object>(target: T): T {
      if (!(#mark in target)) new this(target)
      return target
    }

    static has(value: object): boolean {
      return #mark in value
    }
  }
}

/** Containers `snapshot` built: frozen, lossless JSON copies. */
export const CopyMark = markKind()
/** Results and content lists read once into frozen, well-formed copies (`results.ts`). */
export const CheckedMark = markKind()
/** Argument objects the kernel parsed from a model's text and froze, with no `__proto__` key. */
export const ArgumentsMark = markKind()
