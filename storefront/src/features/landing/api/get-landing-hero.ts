import type { LandingHero } from '@shop/domain'

import { api } from '@/lib/api-client'

export const landingHeroKey = '/api/content/landing-hero'

/** GET /api/content/landing-hero: the hero's words and button labels, edited in the CMS. */
export function getLandingHero(): Promise<LandingHero> {
  return api.get<LandingHero>(landingHeroKey, 'Failed to load page data.')
}
