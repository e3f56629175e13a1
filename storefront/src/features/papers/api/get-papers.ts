import type { Paper, PapersPage } from '@shop/domain'

import { api } from '@/lib/api-client'

export const papersKey = '/api/papers'
export const papersPageKey = '/api/content/papers-page'

/** GET /api/papers: the nine white papers with their per-language links. */
export function getPapers(): Promise<Paper[]> {
  return api.get<Paper[]>(papersKey, 'Failed to load page data.')
}

/** GET /api/content/papers-page: the public key file and the author's links. */
export function getPapersPage(): Promise<PapersPage> {
  return api.get<PapersPage>(papersPageKey, 'Failed to load page data.')
}
