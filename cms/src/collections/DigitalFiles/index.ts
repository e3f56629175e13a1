import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { filesDir } from '../../config/runtime'
import { slugs } from '../slugs'

export const DIGITAL_MIME_TYPES = ['application/pdf', 'application/epub+zip']

/**
 * The books that are sold as files. Stored under FILES_DIR, which no route serves: buyers get
 * them only through /download/pdf/{token}, admins through the CMS.
 */
export const DigitalFiles: CollectionConfig = {
  slug: slugs.digitalFiles,
  admin: { group: 'Shop' },
  access: { read: isAdmin, create: isAdmin, update: isAdmin, delete: isAdmin },
  upload: {
    staticDir: filesDir,
    mimeTypes: DIGITAL_MIME_TYPES,
    filesRequiredOnCreate: true,
    disableLocalStorage: false,
  },
  fields: [],
}
