import path from 'node:path'

import express from 'express'
import type { RequestHandler, Response } from 'express'

/** Files a browser may show in the page: images, and PDFs (their own sandboxed viewer). */
const INLINE = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.pdf'])

/**
 * Uploaded files (book covers, papers, the public key) are served as inert documents: a sandbox
 * CSP with nothing allowed to run or load, no MIME sniffing, and anything that is not an image
 * or a PDF as a download. An uploaded page with script in it can then never run on the shop's
 * origin, whatever its name or type.
 */
export function serveUserFiles(dir: string): RequestHandler {
  return express.static(dir, {
    fallthrough: false,
    index: false,
    dotfiles: 'deny',
    maxAge: '1h',
    setHeaders: (res: Response, file: string) => {
      res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'")
      res.setHeader('X-Content-Type-Options', 'nosniff')
      if (!INLINE.has(path.extname(file).toLowerCase()))
        res.setHeader(
          'Content-Disposition',
          `attachment; filename="${path.basename(file).replace(/"/g, '')}"`,
        )
    },
  })
}
