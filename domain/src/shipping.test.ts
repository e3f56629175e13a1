import { describe, expect, it } from 'vitest'

import { eurToSatoshis } from './money'
import {
  countryList,
  findCountry,
  isCountryName,
  isPhoneNumber,
  isShippingCost,
  matchCountries,
  orderTotalEUR,
} from './shipping'

describe('the country list', () => {
  it('holds every ISO 3166-1 country once, by code and by name, sorted by name', () => {
    const list = countryList()
    expect(list).toHaveLength(249)
    expect(new Set(list.map((c) => c.code)).size).toBe(249)
    expect(new Set(list.map((c) => c.name)).size).toBe(249)
    for (const { code } of list) expect(code).toMatch(/^[A-Z]{2}$/)
    const names = list.map((c) => c.name)
    expect([...names].sort((a, b) => a.localeCompare(b, 'en'))).toEqual(names)
  })

  it('finds a country by code, English name or other name, in any case and without accents', () => {
    expect(findCountry('Italy')?.code).toBe('IT')
    expect(findCountry(' it ')?.name).toBe('Italy')
    expect(findCountry('united kingdom')?.code).toBe('GB')
    expect(findCountry('UK')?.name).toBe('United Kingdom')
    expect(findCountry('USA')?.name).toBe('United States')
    expect(findCountry('Turkey')?.name).toBe('Türkiye')
    expect(findCountry('cote d ivoire')?.code).toBe('CI')
    expect(findCountry('Reunion')?.name).toBe('Réunion')
  })

  it('refuses what is not a country of the list', () => {
    for (const value of ['', '   ', 'Atlantis', 'XX', 'EU', 'Ital', null, undefined]) {
      expect(findCountry(value), String(value)).toBeNull()
    }
  })

  it('stores only exact names', () => {
    expect(isCountryName('Italy')).toBe(true)
    expect(isCountryName('italy')).toBe(false)
    expect(isCountryName('IT')).toBe(false)
    expect(isCountryName(null)).toBe(false)
  })

  it('matches a search by part of the name, the code or another name', () => {
    expect(matchCountries('').length).toBe(249)
    expect(matchCountries('ital').map((c) => c.name)).toEqual(['Italy'])
    expect(matchCountries('uk').map((c) => c.name)).toEqual(['Ukraine', 'United Kingdom'])
    expect(matchCountries('sao tome').map((c) => c.code)).toEqual(['ST'])
    expect(matchCountries('zzz')).toEqual([])
  })
})

describe('the phone rule', () => {
  it.each(['+39 051 123 4567', '(020) 7946-0958', '0612345678', '123456', '+1 (555) 010-9999'])(
    'accepts %s',
    (value) => expect(isPhoneNumber(value)).toBe(true),
  )

  it.each([
    ['too few digits', '12345'],
    ['too many digits', '1'.repeat(21)],
    ['letters', '+39 051 CALL ME'],
    ['an extension mark', '0512345#12'],
    ['only symbols', '+ - ( )'],
    ['a dot', '051.123.4567'],
  ])('refuses %s', (_why, value) => expect(isPhoneNumber(value)).toBe(false))
})

describe('shipping cost', () => {
  it('is 0 (included) up to 1000 EUR with at most 2 decimals', () => {
    for (const ok of [0, 4.9, 5, 12.35, 1000]) expect(isShippingCost(ok), String(ok)).toBe(true)
    for (const bad of [-1, 1000.01, 4.999, Number.NaN, Infinity, '5', null])
      expect(isShippingCost(bad), String(bad)).toBe(false)
  })

  it('adds to the price in cents, so the satoshis due follow the total', () => {
    expect(orderTotalEUR(29.9, 0)).toBe('29.90')
    expect(orderTotalEUR(29.9, 4.1)).toBe('34.00')
    expect(orderTotalEUR('0.10', '0.20')).toBe('0.30')
    expect(eurToSatoshis(orderTotalEUR(29.9, 5), 50)).toBe(eurToSatoshis('34.90', 50))
  })
})
