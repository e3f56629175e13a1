import { EMAIL_RULE, isEmail } from '@shop/domain'
import type { Validate } from 'payload'

/**
 * The buyer's e-mail meets the shop's one rule (`isEmail` of domain/, checkout's too) through
 * every door: checkout, /cms, /cms/api and the Local API. It replaces Payload's own e-mail check,
 * which it is at least as strict as. A value the order already holds is left alone: rows stored
 * before the rule still move through their statuses and take the owner's actions, while any new
 * value must pass.
 */
export const requireEmail: Validate = (value, { previousValue, required }) => {
  if (value === null || value === undefined || value === '') return required ? EMAIL_RULE : true
  if (value === previousValue) return true
  return typeof value === 'string' && isEmail(value) ? true : EMAIL_RULE
}
