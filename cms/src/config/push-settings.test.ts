import { describe, expect, it } from 'vitest'

import { loadEnv } from './env'

/** WhatsOnChain's push stream where it exists, polling always (decision 016). */
describe('WOC_SOCKET_URL', () => {
  const base = { NODE_ENV: 'test' } as NodeJS.ProcessEnv

  it("is the simulator's stream in test mode, and WoC's own (by network) on WhatsOnChain", () => {
    expect(loadEnv({ ...base, SIMULATOR_PORT: '3111' }).wocSocketUrl).toBe(
      'ws://127.0.0.1:3111/websocket',
    )
    expect(loadEnv({ ...base, CHAIN_SOURCE: 'whatsonchain' }).wocSocketUrl).toBe(
      'wss://socket-v2.whatsonchain.com/websocket',
    )
    expect(
      loadEnv({ ...base, CHAIN_SOURCE: 'whatsonchain', BSV_NETWORK: 'test' }).wocSocketUrl,
    ).toBe('wss://socket-v2-testnet.whatsonchain.com/websocket')
  })

  it('is none when WOC_API_URL points elsewhere (no guess), unless set; off turns it off', () => {
    const elsewhere = {
      ...base,
      CHAIN_SOURCE: 'whatsonchain',
      WOC_API_URL: 'http://127.0.0.1:9/v1',
    }
    expect(loadEnv(elsewhere).wocSocketUrl).toBeUndefined()
    expect(
      loadEnv({ ...elsewhere, WOC_SOCKET_URL: 'ws://127.0.0.1:9/websocket' }).wocSocketUrl,
    ).toBe('ws://127.0.0.1:9/websocket')
    expect(loadEnv({ ...base, WOC_SOCKET_URL: 'off' }).wocSocketUrl).toBeUndefined()
    expect(loadEnv({ ...base, WOC_SOCKET_URL: '' }).wocSocketUrl).toBe(
      'ws://127.0.0.1:3100/websocket',
    )
  })

  it('refuses an address that is no websocket', () => {
    for (const bad of ['https://socket-v2.whatsonchain.com/websocket', 'socket-v2', 'on'])
      expect(() => loadEnv({ ...base, WOC_SOCKET_URL: bad })).toThrow(
        /WOC_SOCKET_URL must be a ws:\/\/ or wss:\/\/ address, or off/,
      )
  })
})
