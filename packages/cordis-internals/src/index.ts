/**
 * `@rein/cordis-internals`: every place rein relies on cordis beyond its documented API, in
 * one package, each pinned by a named test in `test/`, so a cordis upgrade that breaks one
 * fails that one test. For rein's own packages (the kernel, the agent): not a plugin API, and
 * it changes whenever cordis' internals do.
 */
export {
  untraced, serviceTarget, serviceOf, interceptListeners, scopeFacts, pluginRuntimes, onLifecycleChange, pluginName, type ScopeFacts,
} from './cordis-internals.js'
export { eventBus, type EventBus } from './event-bus.js'
