/** @rein/loader: Loads a rein harness from rein.yaml: provider, plugins in order, tools, agent settings. */
export {}
