/** @rein/cli: The rein command: run, check, chains, demo, trace. */
export {}
