/** @rein/plugin-spill: rein policy plugin: spills large tool outputs to a store and shows a head/tail preview with a locator. */
export {}
