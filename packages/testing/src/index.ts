/**
 * `@rein/testing`: the test kit. `scripted(steps)` is a Provider that answers from a script;
 * the gate and tool doubles make ordering observable without sleeps; `validateTranscript`
 * says whether a provider would accept a conversation.
 */
export { scripted, type ScriptStep, type ScriptedProvider, type ScriptedOptions } from './scripted.js'
export { toolCall, callMessage, textMessage } from './messages.js'
export { createGate, type Gate, type GateToolOptions } from './gate.js'
export { sleepTool, ignoresSignalTool, echoTool, type DoubleOptions } from './tools.js'
export { validateTranscript } from './transcript.js'
export { ledgerTool, readLedger, type LedgerLine, type LedgerToolOptions } from './ledger.js'
export { captureWarnings } from './warnings.js'
export { withKernel, type WithKernelOptions } from './harness.js'
export * from './providers.js'
export { testSessionStore, type SessionStoreFixture, type SessionStoreContractOptions, type StoreUnderTest, type StoreEntry } from './session-store-contract.js'
export { testSpillStore, type SpillStoreUnderTest } from './spill-store-contract.js'
export { startPostgres, whyNoPostgres, type PostgresServer, type StartPostgresOptions } from './servers/postgres.js'
export { startRedis, whyNoRedis, type RedisServer, type StartRedisOptions } from './servers/redis.js'
