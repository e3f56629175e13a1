import { emailSchema } from './email'
import type { OrderHistoryAction } from './order-status'
import { z } from './zod'

/**
 * A buyer who lost their download link asks for a new one by e-mail address
 * (POST /api/orders/resend-links): the request, and the one answer the shop gives to every valid
 * address, so the answer never tells who bought the book.
 */
export const resendLinksRequestSchema = z.object({ email: emailSchema })
export type ResendLinksRequest = z.infer<typeof resendLinksRequestSchema>

export const RESEND_LINKS_ANSWER = {
  success: true,
  message:
    'If this address has paid for a PDF, a new download link is on its way to it. Please check your inbox (and the spam folder) in a few minutes.',
} as const
export type ResendLinksAnswer = typeof RESEND_LINKS_ANSWER

/** The owner sent the buyer a new download link: an entry of the order's history, no status change. */
export const DOWNLOAD_LINK_REISSUED = 'download-link' satisfies OrderHistoryAction
