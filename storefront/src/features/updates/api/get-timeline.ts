import type { TimelineItem } from '@shop/domain'

import { api } from '@/lib/api-client'

export const timelineKey = '/api/timeline'

/** GET /api/timeline: the project's milestones, in order. */
export function getTimeline(): Promise<TimelineItem[]> {
  return api.get<TimelineItem[]>(timelineKey, 'Failed to load page data.')
}
