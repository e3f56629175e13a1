import type { CollectionConfig } from 'payload'

import { isAdmin } from '../../access/isAdmin'
import { filesDir } from '../../config/runtime'
import { fileContentIs, refuseUploadByUrl } from '../hooks/uploadRules'
import { slugs } from '../slugs'

export const DIGITAL_MIME_TYPES = ['application/pdf', 'application/epub+zip']

/**
 * The books that are sold as files. Stored under FILES_DIR, which no route serves: buyers get
 * them only through /download/pdf/{token}, admins through the CMS.
 */
export const DigitalFiles: CollectionConfig = {
  slug: slugs.digitalFiles,
  // Locks are for editors' content: a lock here would show order ids to any staff member
  // and let an editor block an admin.
  lockDocuments: false,
  admin: { group: 'Shop' },
  access: { read: isAdmin, create: isAdmin, update: isAdmin, delete: isAdmin },
  hooks: {
    beforeOperation: [
      refuseUploadByUrl,
      fileContentIs({
        collection: slugs.digitalFiles,
        mimeTypes: DIGITAL_MIME_TYPES,
        message: 'A book file must be a PDF or an EPUB.',
      }),
    ],
  },
  upload: {
    staticDir: filesDir,
    pasteURL: false,
    mimeTypes: DIGITAL_MIME_TYPES,
    filesRequiredOnCreate: true,
    disableLocalStorage: false,
  },
  fields: [],
}
