import { COUNTRIES, COUNTRY_ALIASES } from './countries'
import { eurToCents, formatEUR } from './money'

/**
 * What checkout asks of a printed book's buyer beyond the address: a country from the list, an
 * optional phone number for the courier, and the shipping cost the product sets. No I/O.
 */

export type Country = { code: string; name: string }

/** Lower case, accents and punctuation folded: "Côte d'Ivoire" and "cote divoire" meet. */
const fold = (value: string): string =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()

const countries: Country[] = COUNTRIES.map(([code, name]) => ({ code, name })).sort((a, b) =>
  a.name.localeCompare(b.name, 'en'),
)

/** Every search word of a country: its name, its code and its other names, folded. */
const searchable = countries.map((country) => ({
  country,
  name: fold(country.name),
  others: [country.code.toLowerCase(), ...(COUNTRY_ALIASES[country.code] ?? []).map(fold)],
}))

/** The countries, sorted by English name. */
export const countryList = (): readonly Country[] => countries

/**
 * The country a buyer or a record means: the ISO code, the English name or a known other name,
 * in any case and with or without accents. Null when it is none of the list.
 */
export function findCountry(value: string | null | undefined): Country | null {
  if (typeof value !== 'string') return null
  const folded = fold(value)
  if (!folded) return null
  const hit = searchable.find((entry) => entry.name === folded || entry.others.includes(folded))
  return hit?.country ?? null
}

/** True for exactly a name of the list: what an order stores. */
export const isCountryName = (value: unknown): boolean =>
  typeof value === 'string' && countries.some((country) => country.name === value)

/**
 * The countries a search typed at checkout matches: names that contain it (accents ignored),
 * and the country whose code or other name it is ("uk", "usa", "turkey").
 */
export function matchCountries(query: string): Country[] {
  const folded = fold(query)
  if (!folded) return countries
  return searchable
    .filter((entry) => entry.name.includes(folded) || entry.others.includes(folded))
    .map((entry) => entry.country)
}

export const COUNTRY_RULE = 'Please choose the shipping country from the list.'

/** Digits, spaces, +, - and parentheses, with 6 to 20 digits: loose, as numbers are written. */
export function isPhoneNumber(value: string): boolean {
  if (!/^[\d\s+\-()]+$/.test(value)) return false
  const digits = value.replace(/\D/g, '').length
  return digits >= 6 && digits <= 20
}

export const PHONE_RULE =
  'Please enter a valid phone number (6 to 20 digits; spaces, +, - and parentheses are allowed), or leave it empty.'

/** The highest shipping cost a product may set, in EUR: a typo's guard, not a policy. */
export const MAX_SHIPPING_COST_EUR = 1000

export const SHIPPING_COST_RULE = `Shipping cost must be an amount in EUR from 0 to ${MAX_SHIPPING_COST_EUR} with at most 2 decimals (0 means shipping is included in the price).`

/** True for a usable shipping cost: 0 (included) up to the maximum, in cents. */
export function isShippingCost(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return false
  if (value > MAX_SHIPPING_COST_EUR) return false
  return Math.abs(Math.round(value * 100) - value * 100) < 1e-6
}

/** "34.90": a book's price plus its shipping, added in cents. */
export function orderTotalEUR(priceEUR: number | string, shippingCostEUR: number | string): string {
  return formatEUR((eurToCents(priceEUR) + eurToCents(shippingCostEUR)) / 100)
}
