import type { Faq } from '@shop/domain'

import { api } from '@/lib/api-client'

export const faqsKey = '/api/content/faqs'

/** GET /api/content/faqs: the landing page's questions, edited in the CMS. */
export function getFaqs(): Promise<Faq[]> {
  return api.get<Faq[]>(faqsKey, 'Failed to load page data.')
}
