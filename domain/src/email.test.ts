import { describe, expect, it } from 'vitest'

import { EMAIL_RULE, emailSchema, isEmail } from './email'

describe('isEmail', () => {
  it('checks e-mails with the simple pattern of the spec', () => {
    expect(isEmail('buyer@example.com')).toBe(true)
    expect(isEmail('buyer@example')).toBe(false)
    expect(isEmail('buyer example.com')).toBe(false)
    expect(isEmail(`${'a'.repeat(250)}@b.co`)).toBe(false)
  })

  it('accepts ordinary addresses: tags, subdomains, digits, any case', () => {
    for (const email of [
      'Ada.Lovelace+books@Example.co.uk',
      'o_brien@sub.mail-host.example.org',
      "x!#$%&'*+/=?^`{|}~-y@ex--ample.io",
      '1@2.de',
    ])
      expect(isEmail(email), email).toBe(true)
  })

  it('refuses what a mail server or Payload would: separators, dots, quotes, non-ASCII, lengths', () => {
    for (const email of [
      'bad;mail@b.co',
      'a..b@c.de',
      'a,b@c.de',
      '.a@b.co',
      'a.@b.co',
      '"a"@b.co',
      'a b@c.de',
      'ü@example.de',
      'a@-b.co',
      'a@b-.co',
      'a@b.c',
      'a@b.c0',
      'a@@b.co',
      `${'a'.repeat(65)}@b.co`,
      `a@${'b'.repeat(64)}.co`,
      `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`,
    ])
      expect(isEmail(email), email).toBe(false)
    expect(isEmail(`${'a'.repeat(64)}@${'b'.repeat(63)}.co`)).toBe(true)
  })
})

describe('emailSchema', () => {
  it('trims, then answers with the spec message', () => {
    expect(emailSchema.parse('  buyer@example.com ')).toBe('buyer@example.com')
    for (const value of ['', 'bad;mail@b.co', 42]) {
      const parsed = emailSchema.safeParse(value)
      expect(parsed.success).toBe(false)
      expect(parsed.error?.issues[0]?.message).toBe(EMAIL_RULE)
    }
  })
})
