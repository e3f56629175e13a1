import { describe, expect, it } from 'vitest'

import { parseTrustProxy } from './trustProxy'

describe('TRUST_PROXY', () => {
  it('trusts nobody unless told', () => {
    expect(parseTrustProxy(undefined)).toBe(false)
    expect(parseTrustProxy('')).toBe(false)
    expect(parseTrustProxy('false')).toBe(false)
  })

  it('accepts named ranges, addresses, subnets and hop counts', () => {
    expect(parseTrustProxy('loopback')).toEqual(['loopback'])
    expect(parseTrustProxy('172.18.0.0/16, ::1')).toEqual(['172.18.0.0/16', '::1'])
    expect(parseTrustProxy('1')).toBe(1)
  })

  it('refuses true and anything that is not an address', () => {
    expect(parseTrustProxy('true')).toMatchObject({ problem: expect.stringMatching(/forge/) })
    expect(parseTrustProxy('proxy.example')).toMatchObject({ problem: expect.any(String) })
    expect(parseTrustProxy('10.0.0.0/40')).toMatchObject({ problem: expect.any(String) })
  })
})
