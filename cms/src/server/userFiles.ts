import path from 'node:path'

import express from 'express'
import type { RequestHandler, Response } from 'express'

import type { FileArea, FileStore } from '../storage'
import { isPlainFileName } from '../storage'

/** Files a browser may show in the page: images, and PDFs (their own sandboxed viewer). */
const INLINE = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp', '.avif', '.pdf'])

/**
 * An uploaded file is served as an inert document: a sandbox CSP with nothing allowed to run or
 * load, no MIME sniffing, and anything that is not an image or a PDF as a download. An uploaded
 * page with script in it can then never run on the shop's origin, whatever its name or type.
 */
function setInertHeaders(res: Response, file: string) {
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'; img-src 'self'")
  res.setHeader('X-Content-Type-Options', 'nosniff')
  if (!INLINE.has(path.extname(file).toLowerCase()))
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${path.basename(file).replace(/"/g, '')}"`,
    )
}

/**
 * Uploaded files (book covers, papers, the public key) at /media and /documents, from wherever
 * they are stored: the local directory (express.static: ranges, ETags), or the S3 bucket.
 */
export function serveUserFiles(store: FileStore, area: FileArea): RequestHandler {
  if (store.kind === 'local')
    return express.static(store.localDir(area), {
      fallthrough: false,
      index: false,
      dotfiles: 'deny',
      maxAge: '1h',
      setHeaders: setInertHeaders,
    })
  const router = express.Router()
  router.get('/:name', async (req, res, next) => {
    const name = String(req.params.name)
    if (!isPlainFileName(name)) return res.status(404).type('text').send('Not found')
    try {
      const stored = await store.open(area, name)
      if (!stored) return res.status(404).type('text').send('Not found')
      setInertHeaders(res, name)
      res.type(path.extname(name) || 'application/octet-stream')
      res.setHeader('Cache-Control', 'public, max-age=3600')
      if (stored.size !== undefined) res.setHeader('Content-Length', String(stored.size))
      if (req.method === 'HEAD') {
        stored.body.destroy()
        return res.end()
      }
      stored.body.on('error', (error) => res.destroy(error))
      stored.body.pipe(res)
    } catch (error) {
      next(error)
    }
  })
  router.use((_req, res) => res.status(404).type('text').send('Not found'))
  return router
}
