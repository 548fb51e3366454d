/**
 * Collecting what plugins log as warnings, for tests that assert "warned once". The records
 * go to the returned list instead of the console; `stop()` detaches (call it in `finally`).
 */
import { Logger, type Context } from 'cordis'

/** Warnings logged under logger `name`, from `ctx`'s context tree only when `ctx` is given. */
export function captureWarnings(name: string, ctx?: Context): { warnings: string[], stop(): void } {
  const warnings: string[] = []
  const target: Logger.Target = {
    colors: 0,
    record(record) {
      if (record.type !== 'warn' || record.name !== name) return
      const owner = (record.meta as { ctx?: Context } | undefined)?.ctx
      if (ctx && owner?.root !== ctx.root) return
      warnings.push(record.content)
    },
  }
  Logger.targets.push(target)
  return {
    warnings,
    stop() {
      const index = Logger.targets.indexOf(target)
      if (index >= 0) Logger.targets.splice(index, 1)
    },
  }
}
