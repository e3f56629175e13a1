import { describe, expect, it } from 'vitest'

import { isSafeLink } from './safeLinks'

describe('links editors may write', () => {
  it.each([
    'https://example.com',
    'http://x.test/a',
    'mailto:a@example.com',
    'tel:+3912',
    '/legal#terms',
    '#',
    '',
  ])('accepts %s', (url) => expect(isSafeLink(url)).toBe(true))

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    ' java\tscript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'file:///etc/passwd',
  ])('refuses %s', (url) => expect(isSafeLink(url)).toBe(false))
})
