import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { PDFDocument } from 'pdf-lib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { createStaff, signedIn } from '@shop/cms/testing'
import { blob, pdfDocument, pngImage, productForm, validFields } from '@shop/cms/testing'
import type { TestShop } from '@shop/cms/testing'
import { startTestShop } from '@shop/cms/testing'
import { fmt, report } from './support/settings'
import { ADMIN, EDITOR } from './support/shop'

/**
 * Uploads: files that lie about their type, oversized files, path-traversal
 * names and SVG with script, through the admin product form and through Payload's own REST
 * under /cms (where editors upload documents). All refused; nothing lands outside the upload
 * folders; nothing uploaded is served in a way a browser would run.
 */

// A unique marker in every hostile name, searched for on disk afterwards.
const MARK = `hardening-evil-${process.pid}`

let shop: TestShop
let admin: AdminClient
let adminJwt: string
let editorJwt: string
let png: Buffer
let pdf: Buffer

const tried = { refused: 0, accepted: 0 }

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  admin = await signedIn(shop.url, ADMIN.email, ADMIN.password)
  adminJwt = await restLogin(ADMIN)
  editorJwt = await restLogin(EDITOR)
  png = await pngImage()
  pdf = await pdfDocument()
})

afterAll(async () => {
  await shop?.close()
})

async function restLogin(who: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(who),
  })
  expect(response.status, `REST sign-in of ${who.email}`).toBe(200)
  return ((await response.json()) as { token: string }).token
}

const SVG_WITH_SCRIPT = Buffer.from(
  `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>fetch('/api/admin/products')</script><rect width="10" height="10"/></svg>`,
)
const SVG_NO_DECLARATION = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></body></foreignObject></svg>`,
)
const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>',
)
const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(64),
  Buffer.from('PE\0\0'),
  Buffer.alloc(512, 1),
])
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(256)])
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(200, 7)])
const FAKE_PDF = Buffer.concat([
  Buffer.from('%PDF-1.7\n'),
  Buffer.alloc(2_000, 0x41),
  Buffer.from('\n'),
])

async function postProduct(
  fields: Record<string, string>,
  files: Parameters<typeof productForm>[1],
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await admin.request('POST', '/products', { form: productForm(fields, files) })
  const body = (await response.json()) as Record<string, unknown>
  if (response.status >= 200 && response.status < 300) tried.accepted += 1
  else tried.refused += 1
  return { status: response.status, body }
}

const fieldErrorPaths = (body: Record<string, unknown>) =>
  ((body.errors as { path: string }[] | undefined) ?? []).map((e) => e.path)

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .flatMap((entry) => (entry.isFile() ? [path.join(entry.parentPath, entry.name)] : []))
}

describe('uploads through the admin product form', () => {
  it('refuses cover images that lie about their type, and SVG with script', async () => {
    const lies: [string, Buffer, string, string][] = [
      ['HTML named .png', HTML, `${MARK}.png`, 'image/png'],
      ['SVG with script', SVG_WITH_SCRIPT, `${MARK}.svg`, 'image/svg+xml'],
      ['SVG with script named .png', SVG_WITH_SCRIPT, `${MARK}.png`, 'image/png'],
      ['SVG without declaration named .webp', SVG_NO_DECLARATION, `${MARK}.webp`, 'image/webp'],
      ['PDF named .jpg', pdf, `${MARK}.jpg`, 'image/jpeg'],
      ['Windows program named .gif', EXE, `${MARK}.gif`, 'image/gif'],
      ['Linux program named .png', ELF, `${MARK}.png`, 'image/png'],
      ['empty file', Buffer.alloc(0), `${MARK}.png`, 'image/png'],
    ]
    for (const [what, data, name, type] of lies) {
      const before = await shop.payload.count({ collection: slugs.media })
      const { status, body } = await postProduct(
        { ...validFields, name: `Cover lie ${what}` },
        { coverImageFile: [blob(data, type), name] },
      )
      expect(status, what).toBe(400)
      expect(fieldErrorPaths(body), what).toEqual(['coverImageFile'])
      expect((await shop.payload.count({ collection: slugs.media })).totalDocs, what).toBe(
        before.totalDocs,
      )
    }
  })

  it('refuses digital books that are not the PDF or EPUB they claim to be', async () => {
    const lies: [string, Buffer, string][] = [
      ['Windows program named .pdf', EXE, `${MARK}.pdf`],
      ['HTML named .pdf', HTML, `${MARK}.pdf`],
      ['SVG with script named .pdf', SVG_WITH_SCRIPT, `${MARK}.pdf`],
      ['a plain ZIP named .epub', ZIP, `${MARK}.epub`],
      ['a PDF named .epub', pdf, `${MARK}.epub`],
      ['a PDF named .exe', pdf, `${MARK}.exe`],
      ['a PDF named .html', pdf, `${MARK}.html`],
      ['a PDF header over garbage', FAKE_PDF, `${MARK}.pdf`],
    ]
    for (const [what, data, name] of lies) {
      const before = await shop.payload.count({ collection: slugs.digitalFiles })
      const { status, body } = await postProduct(
        { ...validFields, name: `Book lie ${what}` },
        { digitalFile: [blob(data, 'application/pdf'), name] },
      )
      expect(status, what).toBe(400)
      expect(fieldErrorPaths(body), what).toEqual(['digitalFile'])
      expect((await shop.payload.count({ collection: slugs.digitalFiles })).totalDocs, what).toBe(
        before.totalDocs,
      )
    }
  })

  it('refuses oversized files with the limit in the message, before storing anything', async () => {
    const cover = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024 + 1 - png.length)])
    const bigCover = await postProduct(validFields, {
      coverImageFile: [blob(cover, 'image/png'), `${MARK}.png`],
    })
    expect(bigCover.status).toBeGreaterThanOrEqual(400)
    expect(bigCover.status).toBeLessThan(500)
    expect(JSON.stringify(bigCover.body)).toMatch(/at most 5 MB/)

    const book = Buffer.concat([pdf, Buffer.alloc(50 * 1024 * 1024 + 1 - pdf.length)])
    const bigBook = await postProduct(validFields, {
      digitalFile: [blob(book, 'application/pdf'), `${MARK}.pdf`],
    })
    expect(bigBook.status).toBe(413)
    expect(JSON.stringify(bigBook.body)).toMatch(/at most 50 MB/)

    const form = productForm(validFields, { coverImageFile: [blob(png, 'image/png'), 'a.png'] })
    form.append('coverImageFile', blob(png, 'image/png'), 'b.png')
    const twoCovers = await admin.request('POST', '/products', { form })
    expect(twoCovers.status).toBe(400)
    const unexpected = productForm(validFields)
    unexpected.append('payloadFile', blob(png, 'image/png'), 'c.png')
    expect((await admin.request('POST', '/products', { form: unexpected })).status).toBe(400)
    tried.refused += 3
  })

  it('stores files with traversal names under a safe name inside the upload folders', async () => {
    const names = [
      `../../../../${MARK}.pdf`,
      `..\\..\\..\\${MARK}.pdf`,
      `/etc/${MARK}.pdf`,
      `a/../../${MARK}.pdf`,
      `%2e%2e%2f%2e%2e%2f${MARK}.pdf`,
      `....//....//${MARK}.pdf`,
      `${MARK}\u0000.png.pdf`,
      `.${MARK}.pdf`,
      `${'x'.repeat(1000)}${MARK}.pdf`,
      `\u202e${MARK}fdp.exe.pdf`,
    ]
    const env = (await import('@shop/cms/process')).loadEnv()
    for (const name of names) {
      const { status, body } = await postProduct(
        { ...validFields, name: `../../${MARK} ${name.slice(0, 100)}` },
        {
          digitalFile: [blob(pdf, 'application/pdf'), name],
          coverImageFile: [blob(png, 'image/png'), name.replace(/\.pdf$/, '.png')],
        },
      )
      expect([201, 400], `${name}: ${JSON.stringify(body)}`).toContain(status)
      if (status !== 201) continue
      const product = await shop.payload.findByID({
        collection: slugs.products,
        id: body.id as number,
        depth: 1,
      })
      for (const [doc, folder] of [
        [product.digitalFile, env.filesDir],
        [product.coverImage, env.mediaDir],
      ] as const) {
        const filename = (doc as { filename?: string }).filename ?? ''
        expect(filename, name).toMatch(/^[a-z0-9][a-z0-9-]*\.(pdf|png)$/)
        expect(fs.existsSync(path.join(folder, filename)), name).toBe(true)
      }
    }
  })
})

describe("uploads through Payload's REST under /cms", () => {
  async function restUpload(
    collection: string,
    jwt: string,
    data: Buffer,
    name: string,
    type: string,
  ): Promise<number> {
    const form = new FormData()
    form.append('file', blob(data, type), name)
    form.append(
      '_payload',
      JSON.stringify(collection === 'media' ? { alt: MARK } : { title: MARK }),
    )
    const response = await fetch(`${shop.url}/cms/api/${collection}`, {
      method: 'POST',
      headers: { Authorization: `JWT ${jwt}` },
      body: form,
    })
    if (response.status >= 200 && response.status < 300) tried.accepted += 1
    else tried.refused += 1
    return response.status
  }

  it('refuses SVG with script, HTML and programs as documents (editors) and media (admins)', async () => {
    const cases: [string, string, Buffer, string, string][] = [
      ['documents', editorJwt, SVG_WITH_SCRIPT, `${MARK}.svg`, 'image/svg+xml'],
      ['documents', editorJwt, SVG_WITH_SCRIPT, `${MARK}.txt`, 'text/plain'],
      ['documents', editorJwt, SVG_NO_DECLARATION, `${MARK}.pdf`, 'application/pdf'],
      ['documents', editorJwt, HTML, `${MARK}.html`, 'text/html'],
      ['documents', editorJwt, HTML, `${MARK}.txt`, 'text/plain'],
      ['documents', editorJwt, EXE, `${MARK}.exe`, 'application/octet-stream'],
      ['documents', editorJwt, EXE, `${MARK}.pdf`, 'application/pdf'],
      ['documents', editorJwt, FAKE_PDF, `${MARK}.pdf`, 'application/pdf'],
      ['media', adminJwt, SVG_WITH_SCRIPT, `${MARK}.svg`, 'image/svg+xml'],
      ['media', adminJwt, HTML, `${MARK}.png`, 'image/png'],
      ['media', adminJwt, pdf, `${MARK}.png`, 'image/png'],
      // Editors may not upload covers or books at all.
      ['media', editorJwt, png, `${MARK}.png`, 'image/png'],
      ['digital-files', editorJwt, pdf, `${MARK}.pdf`, 'application/pdf'],
    ]
    for (const [collection, jwt, data, name, type] of cases) {
      const status = await restUpload(collection, jwt, data, name, type)
      expect(status, `${collection} ${name} (${type})`).toBeGreaterThanOrEqual(400)
      expect(status, `${collection} ${name} (${type})`).toBeLessThan(500)
    }
  })

  it('serves what editors may upload (a PDF) as a download that cannot run script', async () => {
    const paper = await PDFDocument.create()
    paper.addPage([200, 200]).drawText('A paper', { x: 20, y: 100, size: 12 })
    const paperPdf = Buffer.from(await paper.save())
    expect(
      await restUpload('documents', editorJwt, paperPdf, `../../${MARK}.pdf`, 'application/pdf'),
    ).toBe(201)
    const doc = (
      await shop.payload.find({ collection: slugs.documents, where: { title: { equals: MARK } } })
    ).docs[0] as { filename: string }
    expect(doc.filename).not.toMatch(/[/\\]|\.\./)
    const served = await fetch(`${shop.url}/documents/${encodeURIComponent(doc.filename)}`)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/pdf')
    expect(served.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('after every upload', () => {
  it('left nothing outside the upload folders and serves no book publicly', async () => {
    const env = (await import('@shop/cms/process')).loadEnv()
    const allowed = [env.mediaDir, env.filesDir, env.documentsDir].map((d) => path.resolve(d))
    const inData = filesUnder(shop.dataDir)
    const stray = inData.filter(
      (file) =>
        !allowed.some((dir) => file.startsWith(`${dir}${path.sep}`)) &&
        !/^shop\.db(-wal|-shm|-journal)?$|^\.payload-secret$/.test(
          path.relative(shop.dataDir, file),
        ),
    )
    expect(stray).toEqual([])

    // No hostile name reached the disk anywhere near the shop (data folder, its parent, the repo).
    const marked = [
      ...inData,
      ...fs.readdirSync(os.tmpdir()).map((n) => path.join(os.tmpdir(), n)),
      ...fs
        .readdirSync(path.dirname(shop.dataDir))
        .map((n) => path.join(path.dirname(shop.dataDir), n)),
      ...filesUnder(path.resolve('cms/src')),
      ...fs.readdirSync(path.resolve('cms')),
      ...fs.readdirSync(path.resolve('.')),
      '/etc',
      ...fs.readdirSync('/etc'),
    ].filter(
      (file) => file.includes(MARK) && !allowed.some((dir) => file.startsWith(`${dir}${path.sep}`)),
    )
    expect(marked).toEqual([])

    // The purchased books stay private: not under /media, /documents or Payload's file route.
    for (const file of filesUnder(env.filesDir)) {
      const name = encodeURIComponent(path.basename(file))
      const book = fs.readFileSync(file)
      for (const url of [`/media/${name}`, `/documents/${name}`]) {
        const response = await fetch(`${shop.url}${url}`)
        const body = Buffer.from(await response.arrayBuffer())
        expect(response.status === 200 && body.equals(book), url).toBe(false)
      }
      expect(
        (await fetch(`${shop.url}/cms/api/digital-files/file/${name}`)).status,
      ).toBeGreaterThanOrEqual(400)
    }

    report(
      `uploads: ${fmt(tried.refused + tried.accepted)} uploads (${tried.refused} refused as they should be, ` +
        `${tried.accepted} stored under safe names), ${inData.length} files on disk, 0 outside the upload folders, ` +
        `0 hostile names on disk, books not served publicly`,
    )
  })
})
