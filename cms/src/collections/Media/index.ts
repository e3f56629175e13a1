import type { CollectionConfig } from 'payload'

import { anyone } from '../../access/anyone'
import { isAdmin } from '../../access/isAdmin'
import { mediaDir } from '../../config/runtime'
import { slugs } from '../slugs'

export const COVER_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']

/** Book covers: public images, stored on disk under MEDIA_DIR and served at /media/{file}. */
export const Media: CollectionConfig = {
  slug: slugs.media,
  access: { read: anyone, create: isAdmin, update: isAdmin, delete: isAdmin },
  upload: {
    staticDir: mediaDir,
    mimeTypes: COVER_MIME_TYPES,
    filesRequiredOnCreate: true,
  },
  fields: [{ name: 'alt', type: 'text' }],
}
