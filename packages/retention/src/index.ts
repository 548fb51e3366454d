/**
 * `@rein/retention`: pure functions that keep the head, the tail, or both ends of a text (by
 * UTF-8 bytes) or of a list (by item count), and say exactly how much they left out. No
 * dependencies, no I/O, no state: the same input always gives the same output.
 */
export { utf8Length, prefixCut, suffixCut, type Cut } from './utf8.js'
export { headBytes, tailBytes, headTailBytes, type TextSlice, type HeadTailText, type HeadTailOptions } from './text.js'
export { headItems, tailItems, headTailItems, type ItemSlice, type HeadTailItems } from './items.js'
