/**
 * Unforgeable marks on objects the kernel built and checked itself, so that a later stage takes
 * them as they are instead of reading them again. A mark is a private class field stamped onto
 * the object (a base class whose constructor returns the object it is given, so the subclass's
 * field lands on that object). Code outside this module can neither read nor forge one; it
 * does not show in `Reflect.ownKeys`, through a proxy, or on a `structuredClone`; and unlike a
 * WeakSet entry (what the kernel used before) it costs the garbage collector nothing. Stamp an
 * object before freezing it.
 */

/** Lets a subclass's private field be defined on any object. */
class Stamp {
  constructor(target: object) {
    return target as Stamp
  }
}

/** Containers `snapshot` built: frozen, lossless JSON copies. */
export class CopyMark extends Stamp {
  #copy = true

  /** Marks `target` (once) and returns it. */
  static add<T extends object>(target: T): T {
    if (!(#copy in target)) new CopyMark(target)
    return target
  }

  /** Whether `value` was marked by `add`. */
  static has(value: object): boolean {
    return #copy in value
  }
}

/** Results and content lists read once into frozen, well-formed copies (`normalize.ts`). */
export class CheckedMark extends Stamp {
  #checked = true

  /** Marks `target` (once) and returns it. */
  static add<T extends object>(target: T): T {
    if (!(#checked in target)) new CheckedMark(target)
    return target
  }

  /** Whether `value` was marked by `add`. */
  static has(value: object): boolean {
    return #checked in value
  }
}
