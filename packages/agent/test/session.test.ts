import { describe, it } from 'vitest'
import { testSessionStore } from '@rein/testing'
import { memorySession } from '../src/index.js'

// The memory store lives as long as its process: a "crash" of the store alone loses nothing.
// It stores what it is given; the agent's load is what checks it.
testSessionStore('memorySession()', async () => {
  const store = memorySession()
  return { store, reopen: () => store, stored: () => store.load(), crash: async () => {} }
}, { describe, it, validates: false })
