import { COUNTRY_RULE, findCountry, isCountryName, isPhoneNumber, PHONE_RULE } from '@shop/domain'
import type { FieldHook, Validate } from 'payload'

/**
 * The shipping country and phone meet the checkout's rules through every door (checkout, an
 * admin's correction in /cms, the Local API). A value an order already holds is left alone, so
 * orders stored before the rules (a free-text country) still move through their statuses.
 */

const isBlank = (value: unknown): boolean =>
  value === null || value === undefined || (typeof value === 'string' && value.trim() === '')

/** A country given by its code or another known name is stored under its English name. */
export const normalizeCountry: FieldHook = ({ value }) =>
  typeof value === 'string' ? (findCountry(value)?.name ?? value) : value

export const requireListedCountry: Validate = (value, { previousValue }) =>
  isBlank(value) || value === previousValue || isCountryName(value) ? true : COUNTRY_RULE

export const trimPhone: FieldHook = ({ value }) =>
  typeof value === 'string' ? value.trim() || null : value

export const requirePhoneNumber: Validate = (value, { previousValue }) =>
  isBlank(value) || value === previousValue || (typeof value === 'string' && isPhoneNumber(value))
    ? true
    : PHONE_RULE
