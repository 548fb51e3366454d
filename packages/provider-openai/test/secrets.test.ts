/** Which configured header values are secret for an OpenAI-compatible server: all but the public ones. */
import { describe, expect, it } from 'vitest'
import { headerSecrets } from '../src/secrets.js'

describe('headerSecrets', () => {
  it('treats every configured header value as secret except a few public ones', () => {
    expect(headerSecrets({
      'api-key': 'a1', Authorization: 'Bearer b2', 'X-Api-Key': 'c3', 'x-anything': 'd4',
      'Content-Type': 'application/json', Accept: 'text/event-stream', 'User-Agent': 'rein', 'OpenAI-Organization': 'org-1',
      'OpenAI-Project': 'proj-1', 'OpenAI-Beta': 'assistants=v2', 'HTTP-Referer': 'https://app', 'X-Title': 'My app',
    })).toEqual(['a1', 'Bearer b2', 'c3', 'd4'])
  })
})
