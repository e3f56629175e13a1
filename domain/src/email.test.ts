import { describe, expect, it } from 'vitest'

import { isEmail } from './email'

describe('isEmail', () => {
  it('checks e-mails with the simple pattern of the spec', () => {
    expect(isEmail('buyer@example.com')).toBe(true)
    expect(isEmail('buyer@example')).toBe(false)
    expect(isEmail('buyer example.com')).toBe(false)
    expect(isEmail(`${'a'.repeat(250)}@b.co`)).toBe(false)
  })
})
