import crypto from 'node:crypto'

import { describe, expect, it, vi } from 'vitest'

import fc from 'fast-check'

import { HD, PublicKey } from '@bsv/sdk'
import {
  deriveOrderAddress,
  deriveP2PKHAddress,
  isP2PKHAddress,
  isPaymail,
  normalizeTokenAddress,
  p2pkhNetwork,
  prepareOrderAddresses,
} from './addresses'

// BIP32 test vector 1 (seed 000102030405060708090a0b0c0d0e0f): extended keys and public keys.
const XPUB_M =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8'
const XPUB_M_0H =
  'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw'
const PUBKEY_M_0H_1 = '03501e454bf00751f24b1b489aa925215d66af2234e3891c3b21a52bedb3cd711c'
const XPUB_M_0H_1_2H_2 =
  'xpub6FHa3pjLCk84BayeJxFW2SP4XRrFd1JYnxeLeU8EqN3vDfZmbqBqaGJAyiLjTAwm6ZLRQUMv1ZACTj37sR62cfN7fe5JnJ7dh8zL4fiyLHV'
const PUBKEY_M_0H_1_2H_2_1000000000 =
  '022a471424da5e657499d1ff51cb43c47481a03b1e77f951fe64cec9f5a48f7011'

const addressOf = (pubKeyHex: string, network: 'mainnet' | 'testnet' = 'mainnet') =>
  PublicKey.fromString(pubKeyHex).toAddress(network)

describe('payment addresses from the owner xpub', () => {
  it('reproduces the public derivations of BIP32 test vector 1', () => {
    expect(deriveP2PKHAddress({ xpub: XPUB_M_0H, path: 'm/1', network: 'main' })).toBe(
      addressOf(PUBKEY_M_0H_1),
    )
    expect(
      deriveP2PKHAddress({ xpub: XPUB_M_0H_1_2H_2, path: 'm/1000000000', network: 'main' }),
    ).toBe(addressOf(PUBKEY_M_0H_1_2H_2_1000000000))
    expect(deriveP2PKHAddress({ xpub: XPUB_M_0H, path: 'm/1', network: 'test' })).toBe(
      addressOf(PUBKEY_M_0H_1, 'testnet'),
    )
  })
  it('derives order n at m/0/n and refuses hardened steps from an xpub', () => {
    expect(deriveOrderAddress({ xpub: XPUB_M, index: 3, network: 'main' })).toBe(
      deriveP2PKHAddress({ xpub: XPUB_M, path: 'm/0/3', network: 'main' }),
    )
    expect(() => deriveP2PKHAddress({ xpub: XPUB_M, path: "m/0'", network: 'main' })).toThrow()
  })
  it('renders the same key for testnet with the 0x6f version byte', () => {
    const main = deriveOrderAddress({ xpub: XPUB_M, index: 7, network: 'main' })
    const test = deriveOrderAddress({ xpub: XPUB_M, index: 7, network: 'test' })
    expect(p2pkhNetwork(main)).toBe('main')
    expect(p2pkhNetwork(test)).toBe('test')
    expect(main).not.toBe(test)
  })
  it('gives a different address for every index', () => {
    const addresses = new Set(
      Array.from({ length: 50 }, (_, index) =>
        deriveOrderAddress({ xpub: XPUB_M, index, network: 'main' }),
      ),
    )
    expect(addresses.size).toBe(50)
  })
  it('refuses indexes outside the non-hardened range', () => {
    expect(() => deriveOrderAddress({ xpub: XPUB_M, index: -1, network: 'main' })).toThrow(
      RangeError,
    )
    expect(() => deriveOrderAddress({ xpub: XPUB_M, index: 2 ** 31, network: 'main' })).toThrow(
      RangeError,
    )
  })
})

describe('token address validation', () => {
  it('accepts P2PKH addresses of both networks and refuses bad checksums and other versions', () => {
    expect(isP2PKHAddress('1BvgsfsZQVtkLS69NvGF8rw6NZW2ShJQHr')).toBe(true)
    expect(isP2PKHAddress('mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn')).toBe(true)
    expect(isP2PKHAddress('1BvgsfsZQVtkLS69NvGF8rw6NZW2ShJQHs')).toBe(false) // checksum
    expect(isP2PKHAddress('3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy')).toBe(false) // P2SH
    expect(isP2PKHAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe(false)
    expect(isP2PKHAddress('1BvgsfsZQVtkLS69NvGF8rw6NZW2ShJQHr', 'test')).toBe(false)
  })
  it('accepts paymails by format only', () => {
    expect(isPaymail('alice@handcash.io')).toBe(true)
    expect(isPaymail('a.b+c@sub.example.com')).toBe(true)
    expect(isPaymail('alice@localhost')).toBe(false)
    expect(isPaymail('alice@@x.io')).toBe(false)
    expect(isPaymail('@x.io')).toBe(false)
  })
  it('trims, reads empty as none, and refuses anything else', () => {
    expect(normalizeTokenAddress('  ')).toEqual({ ok: true, value: null })
    expect(normalizeTokenAddress(null)).toEqual({ ok: true, value: null })
    expect(normalizeTokenAddress(' alice@handcash.io ')).toEqual({
      ok: true,
      value: 'alice@handcash.io',
    })
    expect(normalizeTokenAddress('not an address')).toEqual({ ok: false })
  })
})

describe('public child derivation (node:crypto instead of @bsv/sdk on the checkout path)', () => {
  it('gives the address @bsv/sdk gives, for random keys, indexes and networks', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom('main' as const, 'test' as const),
        (seed, branch, index, network) => {
          const xpub = HD.fromSeed([...seed])
            .toPublic()
            .toString()
          const path = `m/${branch}/${index}`
          expect(deriveP2PKHAddress({ xpub, path, network })).toBe(
            HD.fromString(xpub)
              .derive(path)
              .pubKey.toAddress(network === 'main' ? 'mainnet' : 'testnet'),
          )
        },
      ),
      { numRuns: 100 },
    )
    // Each run derives with @bsv/sdk too (tens of ms on a loaded machine).
  }, 30_000)

  it('gives BIP32 test vector 1 its addresses along the receive chain', () => {
    const root = HD.fromString(XPUB_M)
    for (const index of [0, 1, 2, 19, 20, 1000, 2 ** 31 - 1])
      expect(deriveOrderAddress({ xpub: XPUB_M, index, network: 'main' })).toBe(
        root.derive(`m/0/${index}`).pubKey.toAddress('mainnet'),
      )
  })
})

describe('order addresses derived ahead', () => {
  it('are derived while the process is idle, and answered from memory after', async () => {
    const network = 'test' as const
    const xpub = XPUB_M_0H
    await prepareOrderAddresses({ xpub, network, from: 50, count: 30 })
    // The elliptic-curve work is done: answering the prepared indexes derives nothing.
    const ecdh = vi.spyOn(crypto.ECDH.prototype, 'setPrivateKey')
    const ahead = Array.from({ length: 30 }, (_, i) =>
      deriveOrderAddress({ xpub, index: 50 + i, network }),
    )
    expect(ecdh).not.toHaveBeenCalled()
    // An index outside the range is derived when asked, as before.
    deriveOrderAddress({ xpub, index: 80, network })
    expect(ecdh).toHaveBeenCalledTimes(1)
    ecdh.mockRestore()
    // And each is the address BIP32 gives that index.
    const root = HD.fromString(xpub)
    expect(ahead).toEqual(
      Array.from({ length: 30 }, (_, i) =>
        root.derive(`m/0/${50 + i}`).pubKey.toAddress('testnet'),
      ),
    )
  })

  it('are derived on a thread of their own, never on the one that answers buyers', async () => {
    // Derived on the web process, in idle moments, a rush past the prepared range would derive
    // each address while its buyer waited (a sixth of a checkout).
    const network = 'main' as const
    const xpub = XPUB_M
    const ecdh = vi.spyOn(crypto.ECDH.prototype, 'setPrivateKey')
    await prepareOrderAddresses({ xpub, network, from: 500, count: 200 })
    const ahead = Array.from({ length: 200 }, (_, i) =>
      deriveOrderAddress({ xpub, index: 500 + i, network }),
    )
    expect(ecdh).not.toHaveBeenCalled()
    ecdh.mockRestore()
    const root = HD.fromString(xpub)
    for (const i of [0, 1, 63, 64, 65, 199])
      expect(ahead[i]).toBe(root.derive(`m/0/${500 + i}`).pubKey.toAddress('mainnet'))
  })

  it('move on with the orders: indexes before the new start are forgotten', async () => {
    const network = 'main' as const
    const xpub = XPUB_M_0H
    await prepareOrderAddresses({ xpub, network, from: 0, count: 5 })
    await prepareOrderAddresses({ xpub, network, from: 3, count: 5 })
    const ecdh = vi.spyOn(crypto.ECDH.prototype, 'setPrivateKey')
    for (let index = 3; index < 8; index += 1) deriveOrderAddress({ xpub, index, network })
    expect(ecdh).not.toHaveBeenCalled()
    deriveOrderAddress({ xpub, index: 2, network })
    expect(ecdh).toHaveBeenCalledTimes(1)
    ecdh.mockRestore()
  })
})
