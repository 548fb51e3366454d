// The demo's tools as a plugin module for demo/rein.yaml. The source is src/demo/tools.ts;
// this file points at its build (npx -y pnpm@10 build), so rein.yaml can name a plain local module.
export * from '../dist/src/demo/tools.js'
