export * from 'cordis' // the cordis every rein package runs on: scripts/bundle.mjs makes its bundle cordis whole
