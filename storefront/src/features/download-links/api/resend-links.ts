import type { ResendLinksAnswer } from '@shop/domain'

import { api } from '@/lib/api-client'

/** Asks for a new download link for every paid PDF order of this address (one answer for all). */
export function resendLinks(email: string): Promise<ResendLinksAnswer> {
  return api.post<ResendLinksAnswer>(
    '/api/orders/resend-links',
    { email },
    'Failed to request a new download link.',
  )
}
