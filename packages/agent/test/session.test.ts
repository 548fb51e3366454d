import { memorySession } from '../src/index.js'
import { testSessionStore } from './session-contract.js'

testSessionStore('memorySession()', async () => {
  const store = memorySession()
  return { store, reopen: () => store }
})
