import { z } from './zod'

/** What a buyer reads when their e-mail does not pass (spec section 5). */
export const EMAIL_RULE = 'Please enter a valid email address.'

/** RFC 5321's limits: the whole address, the part before the @, one label of the domain. */
export const EMAIL_MAX_LENGTH = 254
const LOCAL_MAX_LENGTH = 64
const LABEL_MAX_LENGTH = 63

/**
 * ASCII atoms only: no quotes, spaces, commas or semicolons, no dot at either end or two in a
 * row, a domain of letters, digits and inner hyphens ending in a name of two letters or more.
 * It is Payload's own e-mail pattern (payload/dist/fields/validations.js), which every door of
 * the Orders collection used to apply; `cms/test/checkout/order-row.test.ts` checks that nothing
 * this rule accepts is refused by Payload's.
 */
const EMAIL_PATTERN =
  /^(?!.*\.\.)[\w!#$%&'*+/=?^`{|}~-](?:[\w!#$%&'*+/=?^`{|}~.-]*[\w!#$%&'*+/=?^`{|}~-])?@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,}$/i

/**
 * The shop's one e-mail rule, for every door an e-mail comes in by: checkout, the Orders
 * collection's field (/cms, /cms/api, the Local API) and the admin's forms. As strict as the
 * strictest of them, so an address one door accepts is never refused by another later.
 */
export function isEmail(value: string): boolean {
  if (value.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(value)) return false
  const at = value.indexOf('@')
  return (
    at <= LOCAL_MAX_LENGTH &&
    value
      .slice(at + 1)
      .split('.')
      .every((label) => label.length <= LABEL_MAX_LENGTH)
  )
}

/** An e-mail in a request: trimmed, then the shop's rule, with the spec's message. */
export const emailSchema = z
  .string({ error: EMAIL_RULE })
  .trim()
  .max(EMAIL_MAX_LENGTH, EMAIL_RULE)
  .refine(isEmail, EMAIL_RULE)
