/** @rein/testing: Test kit for rein: the scripted provider and tool doubles (gated, signal-ignoring). */
export {}
