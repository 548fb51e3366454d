/**
 * The kit for testing a model provider: the shared contract suite (`testProvider`), a real
 * HTTP fixture on 127.0.0.1 to serve a wire protocol from (`startHttpFixture`), a server that
 * streams server-sent events as fast as the client reads them (`startStreamServer`), and the check
 * that an error shows no secret anywhere a person or a log could see it (`secretLeaks`).
 */
export {
  testProvider, providerChecks, contractRequest, assertAssistantMessage, TEXT_ANSWER, CALLS_ANSWER,
  type ProviderAdapter, type ProviderFixture, type FixtureScript, type ReceivedRequest, type ProviderCheck, type TestRunner,
} from './provider-contract.js'
export { fixtureServers, startHttpFixture, type HttpFixture, type FixtureRequest, type FixtureReply, type FixtureAnswer } from './http-fixture.js'
export { secretLeaks, visibleTexts } from './secret-leaks.js'
export { drainStream, oneToolRequest } from './stream-drain.js'
export { startStreamServer, type StreamServer } from './stream-server.js'
