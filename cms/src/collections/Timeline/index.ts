import type { CollectionConfig } from 'payload'

import { anyone } from '../../access/anyone'
import { isStaff } from '../../access/isStaff'
import { slugs } from '../slugs'

/** The milestones on /updates. */
export const Timeline: CollectionConfig = {
  slug: slugs.timeline,
  labels: { singular: 'Milestone', plural: 'Timeline' },
  admin: {
    group: 'Content',
    useAsTitle: 'title',
    defaultColumns: ['date', 'title', 'status', 'order'],
  },
  defaultSort: 'order',
  access: { read: anyone, create: isStaff, update: isStaff, delete: isStaff },
  fields: [
    {
      name: 'date',
      type: 'text',
      required: true,
      admin: { description: 'As shown, e.g. "Q3 2027".' },
    },
    { name: 'title', type: 'text', required: true },
    { name: 'description', type: 'textarea', required: true },
    {
      name: 'status',
      type: 'select',
      required: true,
      defaultValue: 'upcoming',
      options: [
        { label: 'Completed', value: 'completed' },
        { label: 'Upcoming', value: 'upcoming' },
      ],
    },
    { name: 'order', type: 'number', required: true, defaultValue: 0, index: true },
  ],
}
