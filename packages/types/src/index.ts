/**
 * `@rein/types`: the vocabulary rein's packages speak to one another, as types only (no
 * runtime code, no dependencies). The data of one tool call (DESIGN.md §2), the conversation
 * and the Provider contract (§3), and the agent's observation events. `@rein/kernel` and
 * `@rein/agent` re-export what they always exported; a plugin or a provider may import the
 * types from here alone.
 */
export type * from './tool.js'
export type * from './model.js'
export type * from './agent-events.js'
export type * from './approval.js'
