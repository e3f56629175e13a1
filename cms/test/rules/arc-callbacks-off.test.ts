import fs from 'node:fs'
import path from 'node:path'

import { describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { fromRoot } from '../../src/config/paths'
import { arcCallbackToken } from '../../src/operations/arcCallbacks/token'
import { startTestShop } from '../support/testShop'

/**
 * A shop that registers no callbacks with ARC (ARC off, or ARC_CALLBACK_URL=off) has no receiver
 * for them. Its own file: the settings are read once per process.
 */

const mined = fs.readFileSync(
  path.join(fromRoot('chain/src/simulator/fixtures/arc-docs'), 'callback-mined.json'),
  'utf8',
)

describe('without ARC', () => {
  it('there is no receiver: 404, nothing kept', async () => {
    const off = await startTestShop({ seed: false, env: { ARC_URL: 'off' } })
    try {
      const answer = await fetch(`${off.url}/api/arc/callback`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${arcCallbackToken(off.payload)}`,
        },
        body: mined,
      })
      expect(answer.status).toBe(404)
      expect((await off.payload.find({ collection: slugs.arcCallbacks, depth: 0 })).totalDocs).toBe(
        0,
      )
    } finally {
      await off.close()
    }
  })
})
