import { describe, expect, it } from 'vitest'

import { isDigital, normalizeProductType, publicProductType } from './product-types'

describe('the product type vocabulary', () => {
  it('reads stored, legacy and odd-cased types, and nothing else', () => {
    expect(normalizeProductType('DIGITAL')).toBe('DIGITAL')
    expect(normalizeProductType('physical')).toBe('PHYSICAL')
    expect(normalizeProductType('PDF')).toBe('DIGITAL')
    expect(normalizeProductType(' epub ')).toBe('DIGITAL')
    expect(normalizeProductType('AUDIO')).toBeNull()
    expect(normalizeProductType(3)).toBeNull()
    expect(isDigital('EPUB')).toBe(true)
  })

  it("names a digital book PDF in the spec's public API", () => {
    expect(publicProductType('DIGITAL')).toBe('PDF')
    expect(publicProductType('PHYSICAL')).toBe('PHYSICAL')
  })
})
