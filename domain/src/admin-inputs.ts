import { z } from './zod'

import type { OwnerOrderAction } from './order-status'
import { OWNER_ORDER_ACTION_NAMES } from './order-status'
import { MAX_SHIPPING_COST_EUR, SHIPPING_COST_RULE } from './shipping'

/**
 * What the owner sends from the admin forms (spec sections 5 and 7), one schema a form: the
 * admin screens validate with it as the owner types (react-hook-form), and the admin API parses
 * the request with it, so both say the same thing about the same value.
 */

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
  /** A checkbox: a boolean from the admin form, a word from a multipart body. */
  isAvailable: z
    .union([z.boolean(), z.enum(['true', 'false', 'on', 'off', '1', '0'])], {
      error: 'Availability must be true or false.',
    })
    .optional()
    .transform((value) =>
      value === undefined || typeof value === 'boolean'
        ? value
        : ['true', 'on', '1'].includes(value),
    ),
})

export type ProductInput = z.infer<typeof productInputSchema>

/** Sign-in (spec section 6): both fields present; whether they match is the server's to say. */
export const adminLoginSchema = z.object({
  email: z.string({ error: 'Email is required.' }).trim().min(1, 'Email is required.').max(254),
  password: z.string({ error: 'Password is required.' }).min(1, 'Password is required.').max(200),
})
export type AdminLoginInput = z.input<typeof adminLoginSchema>

export const MIN_PASSWORD_LENGTH = 12

/**
 * Changing one's password. The length is checked here; how guessable the new one is (zxcvbn)
 * is the server's check, as its dictionaries are too heavy for the admin's bundle.
 */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: 'Current password is required.' })
    .min(1, 'Current password is required.')
    .max(200),
  newPassword: z
    .string({ error: 'New password is required.' })
    .min(1, 'New password is required.')
    .min(MIN_PASSWORD_LENGTH, `New password must be at least ${MIN_PASSWORD_LENGTH} characters.`)
    .max(200, 'New password must be at most 200 characters.'),
})
export type ChangePasswordInput = z.input<typeof changePasswordSchema>

export const TRACKING_NUMBER_MAX_LENGTH = 120

/** A printed book's tracking number, when it ships or when it is corrected (spec section 7). */
export const trackingNumberSchema = z
  .string({ error: 'Tracking number cannot be empty.' })
  .trim()
  .min(1, 'Tracking number cannot be empty.')
  .max(
    TRACKING_NUMBER_MAX_LENGTH,
    `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters.`,
  )

/** Marking a printed book shipped. */
export const shipOrderSchema = z.object({ trackingNumber: trackingNumberSchema })
export type ShipOrderInput = z.input<typeof shipOrderSchema>

export const TRACKING_NOTE_MAX_LENGTH = 500

/** Correcting a shipped order's tracking number, with why (kept in the order's history). */
export const correctTrackingSchema = shipOrderSchema.extend({
  note: z
    .string()
    .trim()
    .max(TRACKING_NOTE_MAX_LENGTH, `The reason is at most ${TRACKING_NOTE_MAX_LENGTH} characters.`),
})
export type CorrectTrackingInput = z.input<typeof correctTrackingSchema>

export const ORDER_NOTE_MAX_LENGTH = 1000

/**
 * One of the owner's settling actions (mark paid, cancel, record a refund, settle): always with
 * why; a refund also with the refund's transaction id.
 */
export const orderActionSchema = z
  .object({
    action: z.enum(OWNER_ORDER_ACTION_NAMES as [OwnerOrderAction, ...OwnerOrderAction[]]),
    note: z
      .string({ error: 'Say why in the note.' })
      .trim()
      .min(1, 'Say why in the note.')
      .max(ORDER_NOTE_MAX_LENGTH, `The note must be at most ${ORDER_NOTE_MAX_LENGTH} characters.`),
    txid: z.string().trim().toLowerCase().optional(),
  })
  .refine((input) => input.action !== 'refund' || /^[0-9a-f]{64}$/.test(input.txid ?? ''), {
    path: ['txid'],
    message: 'The refund transaction id must be 64 hexadecimal characters.',
  })
export type OrderActionInput = z.input<typeof orderActionSchema>

/** The first problem zod found, worded for the owner. */
export const firstProblem = (error: z.ZodError) => error.issues[0]?.message ?? 'Invalid input.'
