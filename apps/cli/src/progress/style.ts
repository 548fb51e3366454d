/**
 * Terminal colours, on or off. Colour is used only on a terminal and never when `NO_COLOR`
 * is set; when off, every function returns its text unchanged, so plain output is clean.
 */

/** Wraps text in one colour or weight. */
export type Paint = (text: string) => string

export interface Style {
  enabled: boolean
  green: Paint
  red: Paint
  yellow: Paint
  magenta: Paint
  cyan: Paint
  dim: Paint
  bold: Paint
}

const sgr = (open: number, close: number): Paint => (text) => `\x1b[${open}m${text}\x1b[${close}m`

/** Colours when `enabled`, else identity functions. */
export function createStyle(enabled: boolean): Style {
  const id: Paint = (text) => text
  if (!enabled) return { enabled, green: id, red: id, yellow: id, magenta: id, cyan: id, dim: id, bold: id }
  return {
    enabled,
    green: sgr(32, 39),
    red: sgr(31, 39),
    yellow: sgr(33, 39),
    magenta: sgr(35, 39),
    cyan: sgr(36, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  }
}

/** Whether to colour output: a terminal, and `NO_COLOR` unset or empty. */
export function wantsColor(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && !env.NO_COLOR
}
