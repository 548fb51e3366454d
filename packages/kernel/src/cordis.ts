export * from 'cordis' // as rein's packages import it: scripts/bundle.mjs makes it one module, cordis.bundle.js (docs/ARCHITECTURE.md)
