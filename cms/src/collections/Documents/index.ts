import type { CollectionConfig } from 'payload'

import { anyone } from '../../access/anyone'
import { isStaff } from '../../access/isStaff'
import { documentsDir } from '../../config/runtime'
import { refuseUploadByUrl } from '../hooks/uploadRules'
import { slugs } from '../slugs'
import { checkDocumentFile } from './hooks/checkDocumentFile'

/** Public downloads that editors replace: paper PDFs and the public key (.pem). */
export const Documents: CollectionConfig = {
  slug: slugs.documents,
  admin: { group: 'Content' },
  access: { read: anyone, create: isStaff, update: isStaff, delete: isStaff },
  hooks: { beforeOperation: [refuseUploadByUrl, checkDocumentFile] },
  upload: {
    staticDir: documentsDir,
    pasteURL: false,
    mimeTypes: [
      'application/pdf',
      'application/x-pem-file',
      'text/plain',
      'application/octet-stream',
    ],
    filesRequiredOnCreate: true,
  },
  fields: [{ name: 'title', type: 'text' }],
}
