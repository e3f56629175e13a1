import type { CollectionConfig } from 'payload'

import { anyone } from '../../access/anyone'
import { isAdmin } from '../../access/isAdmin'
import { mediaDir } from '../../config/runtime'
import { fileContentIs, refuseUploadByUrl } from '../hooks/uploadRules'
import { slugs } from '../slugs'

export const COVER_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif']

/** Book covers: public images, stored on disk under MEDIA_DIR and served at /media/{file}. */
export const Media: CollectionConfig = {
  slug: slugs.media,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  access: { read: anyone, create: isAdmin, update: isAdmin, delete: isAdmin },
  hooks: {
    beforeOperation: [
      refuseUploadByUrl,
      fileContentIs({
        collection: slugs.media,
        mimeTypes: COVER_MIME_TYPES,
        message: 'A cover must be an image: PNG, JPEG, WebP, GIF or AVIF.',
      }),
    ],
  },
  upload: {
    staticDir: mediaDir,
    pasteURL: false,
    mimeTypes: COVER_MIME_TYPES,
    filesRequiredOnCreate: true,
  },
  fields: [{ name: 'alt', type: 'text' }],
}
