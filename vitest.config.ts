// Root options for the whole run; the projects themselves are listed in vitest.workspace.ts.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // cordis' logger prints `[W] ...` / `[E] ...` records (with stacks) for the warnings and
    // rejected configs that tests provoke on purpose and assert through captureWarnings.
    onConsoleLog: (log) => !/^\[[EWI]\] /.test(log),
  },
})
