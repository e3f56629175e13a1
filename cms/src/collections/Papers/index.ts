import type { CollectionConfig, Field } from 'payload'

import { anyone } from '../../access/anyone'
import { isStaff } from '../../access/isStaff'
import { refuseUnsafeLinks } from '../hooks/safeLinks'
import { slugs } from '../slugs'
import { fileOrLink } from './hooks/fileOrLink'

const languageVersion = (name: 'en' | 'it', label: string): Field => ({
  name,
  type: 'group',
  label,
  admin: {
    description:
      "Upload the file or give a link, not both; with neither ('#' or empty) the paper shows as not yet available.",
  },
  fields: [
    { name: 'file', type: 'upload', relationTo: slugs.documents },
    {
      name: 'link',
      type: 'text',
      defaultValue: '#',
      validate: fileOrLink,
      admin: { description: "A link to the paper elsewhere, when there is no file; '#' for none." },
    },
    { name: 'certificateLink', type: 'text', defaultValue: '#' },
  ],
})

/** The white papers on /papers, each in English and Italian with a timestamp certificate. */
export const Papers: CollectionConfig = {
  slug: slugs.papers,
  admin: { group: 'Content', useAsTitle: 'title', defaultColumns: ['title', 'order'] },
  defaultSort: 'order',
  access: { read: anyone, create: isStaff, update: isStaff, delete: isStaff },
  hooks: { beforeValidate: [refuseUnsafeLinks] },
  fields: [
    { name: 'title', type: 'text', required: true },
    { name: 'description', type: 'textarea', required: true },
    { name: 'order', type: 'number', required: true, defaultValue: 0, index: true },
    languageVersion('en', 'English'),
    languageVersion('it', 'Italian'),
  ],
}
