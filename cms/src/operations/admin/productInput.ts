import { MAX_SHIPPING_COST_EUR, SHIPPING_COST_RULE } from '@shop/domain'
import { z } from 'zod'

/** The multipart text fields of the product form (spec sections 5 and 7), as sent. */
export type ProductFormFields = Record<string, unknown>

const required = (message: string) => z.string({ error: message }).trim().min(1, message)

const wholeNumber = (label: string) =>
  required(`${label} is required.`)
    .regex(/^\d{1,9}$/, `${label} must be a whole number of at least 0.`)
    .transform(Number)

/** Field rules of spec section 5; the paths are the form's field names. */
export const productInputSchema = z.object({
  name: required('Name is required.').max(200, 'Name must be at most 200 characters.'),
  type: z
    .string({ error: 'Type is required (Digital or Physical).' })
    .trim()
    .toUpperCase()
    .transform((value) => (value === 'PDF' || value === 'EPUB' ? 'DIGITAL' : value))
    .pipe(z.enum(['DIGITAL', 'PHYSICAL'], { error: 'Type must be Digital or Physical.' })),
  priceEUR: required('Price is required.')
    .regex(/^\d{1,9}(\.\d{1,2})?$/, 'Price must be a number of at least 0 with at most 2 decimals.')
    .transform(Number),
  /** Optional (a printed book's; the stored value stays when it is not sent). */
  shippingCostEUR: z
    .string()
    .trim()
    .regex(/^\d{1,9}(\.\d{1,2})?$/, SHIPPING_COST_RULE)
    .transform(Number)
    .pipe(z.number().max(MAX_SHIPPING_COST_EUR, SHIPPING_COST_RULE))
    .optional(),
  totalStock: wholeNumber('Total stock'),
  currentStock: wholeNumber('Current stock'),
  /**
   * Optional (the admin form sends it on edits): the current stock the form was loaded with. The
   * change is then applied relative to it, so copies taken by orders while the form was open are
   * not put back on the shelf; an unchanged field leaves the stock alone.
   */
  currentStockLoaded: z
    .string()
    .trim()
    .regex(/^\d{1,9}$/, 'Current stock must be a whole number of at least 0.')
    .transform(Number)
    .optional(),
  shortDescription: z
    .string()
    .optional()
    .transform((value) => value?.trim() ?? '')
    .pipe(z.string().max(2000, 'Short description must be at most 2000 characters.')),
  isAvailable: z
    .enum(['true', 'false', 'on', 'off', '1', '0'], {
      error: 'Availability must be true or false.',
    })
    .optional()
    .transform((value) => (value === undefined ? undefined : ['true', 'on', '1'].includes(value))),
})

export type ProductInput = z.infer<typeof productInputSchema>
