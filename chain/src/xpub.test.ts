import { describe, expect, it } from 'vitest'

import { xpubProblem } from './xpub'

// BIP32 test vector 1, chain m: the shop's published test-mode xpub.
const TEST_XPUB =
  'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8'

// BIP32 test vector 1, chain m: the private key of the published test xpub.
const TEST_XPRV =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi'

describe('BSV_XPUB', () => {
  it('accepts an extended public key', () => {
    expect(xpubProblem(TEST_XPUB)).toBeNull()
    expect(xpubProblem(`  ${TEST_XPUB}\n`)).toBeNull()
  })

  it('refuses a private key and names the risk', () => {
    expect(xpubProblem(TEST_XPRV)).toMatch(/PRIVATE key \(xprv\).*could spend every payment/)
  })

  it('refuses garbage, a damaged key and a testnet tpub with a reason', () => {
    expect(xpubProblem('not-a-key')).toMatch(/must be an extended public key/)
    const damaged = `${TEST_XPUB.slice(0, -4)}AAAA`
    expect(xpubProblem(damaged)).toMatch(/not a valid extended public key/)
    expect(
      xpubProblem(
        'tpubD6NzVbkrYhZ4XgiXtGrdW5XDAPFCL9h7we1vwNCpn8tGbBcgfVYjXyhWo4E1xkh56hjod1RhGjxbaTLV3X4FyWuejifB9jusQ46QzG87VKp',
      ),
    ).toMatch(/must be an extended public key/)
  })
})
