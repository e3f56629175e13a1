import type { Tool } from '@shop/domain'

import { api } from '@/lib/api-client'

export const toolsKey = '/api/content/tools'

/** GET /api/content/tools: the proof tools and the bot's manuals. */
export function getTools(): Promise<Tool[]> {
  return api.get<Tool[]>(toolsKey, 'Failed to load page data.')
}
