import type { Legal } from '@shop/domain'

import { api } from '@/lib/api-client'

export const legalKey = '/api/content/legal'

/** GET /api/content/legal: the terms of use and privacy policy as HTML rendered by the CMS. */
export function getLegal(): Promise<Legal> {
  return api.get<Legal>(legalKey, 'Failed to load page data.')
}
