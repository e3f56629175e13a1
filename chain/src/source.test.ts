import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainSimulator } from './simulator'
import { startChainSimulator } from './simulator'
import type { ChainSourceSettings } from './source'
import { createChainSource, withoutQuery } from './source'

async function until(check: () => boolean, timeoutMs = 5000) {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('the chain source chosen by its settings', () => {
  let sim: ChainSimulator

  beforeAll(async () => {
    sim = await startChainSimulator({ network: 'test', backgroundTxPerSecond: 0 })
    sim.state.mine(3)
  })

  afterAll(async () => {
    await sim?.close()
  })

  for (const kind of ['simulator', 'whatsonchain'] as const)
    it(`is the WhatsOnChain client and push stream for "${kind}"`, async () => {
      const source = createChainSource({
        kind,
        apiUrl: sim.wocUrl,
        apiKey: `key-${kind}`,
        maxRequestsPerSecond: 50,
        socketUrl: sim.socketUrl,
      })
      expect(source.describe).toEqual({
        source: kind,
        url: sim.wocUrl,
        push: sim.socketUrl,
        arc: 'off',
        arcCallback: 'off',
      })
      expect(source.txSource).toBeUndefined()
      const requestsBefore = sim.requests().length
      expect(await source.chain.getTipHeight()).toBe(sim.state.height)
      // It asked the API it was given, with its key, as WhatsOnChain's client does.
      expect(sim.requests().slice(requestsBefore)).toMatchObject([
        { path: '/chain/info', authorization: `key-${kind}`, wocApiKey: `key-${kind}` },
      ])
      const blocks: number[] = []
      const feed = source.connectFeed!({
        onTransaction: () => {},
        onBlock: ({ height }) => blocks.push(height),
      })
      try {
        await until(() => feed.connected())
        const height = sim.state.mine(1)
        await until(() => blocks.includes(height))
      } finally {
        feed.close()
      }
    })
})

describe('what the source says of itself', () => {
  const settings: ChainSourceSettings = {
    kind: 'whatsonchain',
    apiUrl: 'https://api.whatsonchain.com/v1/bsv/main?apiKey=s3cret',
    maxRequestsPerSecond: 3,
    socketUrl: 'wss://user:s3cret@socket-v2.whatsonchain.com/websocket?token=s3cret#s3cret',
  }

  it('leaves out queries, fragments and credentials, where a key may be', () => {
    const { describe: said } = createChainSource(settings)
    expect(said).toEqual({
      source: 'whatsonchain',
      url: 'https://api.whatsonchain.com/v1/bsv/main',
      push: 'wss://socket-v2.whatsonchain.com/websocket',
      arc: 'off',
      arcCallback: 'off',
    })
    expect(JSON.stringify(said)).not.toContain('s3cret')
    expect(withoutQuery('ws://127.0.0.1:3100/websocket?x=1')).toBe('ws://127.0.0.1:3100/websocket')
  })

  it('has no push stream without a socket address', () => {
    const source = createChainSource({ ...settings, socketUrl: undefined })
    expect(source.connectFeed).toBeUndefined()
    expect(source.describe.push).toBe('off')
  })

  it('refuses a kind it does not know, and addresses it cannot use', () => {
    expect(() => createChainSource({ ...settings, kind: 'blockchair' as never })).toThrow(
      'Unknown chain source "blockchair": expected simulator or whatsonchain.',
    )
    expect(() => createChainSource({ ...settings, kind: 'toString' as never })).toThrow(/Unknown/)
    expect(() => createChainSource({ ...settings, apiUrl: 'ftp://example.com' })).toThrow(/http/)
    expect(() => createChainSource({ ...settings, socketUrl: 'https://example.com' })).toThrow(
      /ws:/,
    )
    expect(() => createChainSource({ ...settings, maxRequestsPerSecond: 0 })).toThrow(/limit/)
  })
})

describe('ARC beside the chain source', () => {
  let sim: ChainSimulator

  beforeAll(async () => {
    sim = await startChainSimulator({ backgroundTxPerSecond: 0, arcApiKey: 'arc-s3cret' })
  })

  afterAll(async () => {
    await sim?.close()
  })

  const settings = (arc: ChainSourceSettings['arc']): ChainSourceSettings => ({
    kind: 'simulator',
    apiUrl: sim.wocUrl,
    maxRequestsPerSecond: 50,
    arc,
  })

  it('is an ARC client asking the address it was given, with its key', async () => {
    const source = createChainSource(
      settings({ url: sim.arcUrl, apiKey: 'arc-s3cret', maxRequestsPerSecond: 20 }),
    )
    expect(source.describe.arc).toBe(sim.arcUrl)
    expect(source.txSource?.name).toBe('arc')
    const txid = 'ab'.repeat(32)
    expect(await source.txSource!.getTransaction(txid)).toMatchObject({ txid, state: 'unknown' })
    expect(sim.arcRequestRecords().at(-1)).toMatchObject({
      method: 'GET',
      path: `/v1/tx/${txid}`,
      authorization: 'Bearer arc-s3cret',
      status: 404,
    })
  })

  it('says where ARC is without its query, and refuses an address that is not http(s)', () => {
    const said = createChainSource(
      settings({ url: 'https://user:pw@arc.taal.com/?key=s3cret', maxRequestsPerSecond: 10 }),
    ).describe
    expect(said.arc).toBe('https://arc.taal.com/')
    expect(said.arcCallback).toBe('off')
    expect(JSON.stringify(said)).not.toContain('s3cret')
    // The callback's token is a secret too: the description names only where callbacks go.
    const withCallback = createChainSource(
      settings({
        url: 'https://arc.taal.com',
        maxRequestsPerSecond: 10,
        callback: { url: 'https://shop.example/api/arc/callback', token: 'cb-s3cret' },
      }),
    ).describe
    expect(withCallback.arcCallback).toBe('https://shop.example/api/arc/callback')
    expect(JSON.stringify(withCallback)).not.toContain('cb-s3cret')
    for (const url of ['ftp://arc.taal.com', 'arc.taal.com', 'wss://arc.taal.com'])
      expect(() => createChainSource(settings({ url, maxRequestsPerSecond: 10 }))).toThrow(
        'The ARC address must be an http:// or https:// address.',
      )
    expect(() =>
      createChainSource(settings({ url: 'https://arc.taal.com', maxRequestsPerSecond: 0 })),
    ).toThrow(/ARC needs a request limit/)
  })
})
