// The owner's side of the shop: the admin account, its session, and the catalogue it keeps
// (a PDF and a printed book, with covers), all through the shop's own admin API.
import fs from 'node:fs'
import path from 'node:path'

import { ADMIN_EMAIL, PASSWORD, base, root, waitUntil } from './context.mjs'
import { launch } from './processes.mjs'

let adminCookie = ''
/** The admin's session as the admin screens send it: Payload refuses a cookie without them (403). */
export const adminHeaders = () => ({
  cookie: adminCookie,
  'x-requested-with': 'XMLHttpRequest',
  origin: base,
})

/** The admin account, made by the bundle's create-admin command with the production settings. */
export async function createAdmin(env) {
  const proc = launch(
    'create-admin',
    process.execPath,
    [
      '--conditions=production',
      path.join(root, 'dist/create-admin.mjs'),
      '--email',
      ADMIN_EMAIL,
      '--password',
      PASSWORD,
    ],
    env,
  )
  if ((await proc.exited) !== 0) throw new Error(`create-admin failed: ${proc.output()}`)
}

/** Payload's admin and REST (Next) load on first use: load them before any row measures them. */
export async function warmCms() {
  await waitUntil(
    async () =>
      (await fetch(`${base}/cms/api/timeline?limit=1`, { headers: adminHeaders() })).status === 200,
    { timeoutMs: 120_000, everyMs: 200, what: 'Payload REST under /cms' },
  )
}

export async function adminLogin() {
  const res = await fetch(`${base}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...adminHeaders() },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: PASSWORD }),
  })
  if (!res.ok) throw new Error(`admin login failed: ${res.status} ${await res.text()}`)
  adminCookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('payload-token='))
}

const PRODUCTS = [
  {
    name: 'The Dual Vote Handbook',
    type: 'DIGITAL',
    priceEUR: '19.90',
    shortDescription: 'Identity, dual vote and trust metrics.',
  },
  {
    name: 'The Dual Vote Handbook (printed)',
    type: 'PHYSICAL',
    priceEUR: '34.90',
    shortDescription: 'The handbook on paper, shipped to your door.',
  },
]

/** The owner's catalogue: a PDF and a printed book, with covers, through the admin API. */
export async function addProducts() {
  const pdf = fs.readFileSync(path.join(root, 'production/support/book.pdf'))
  const cover = await coverImage()
  for (const product of PRODUCTS) {
    const form = new FormData()
    for (const [k, v] of Object.entries({
      ...product,
      totalStock: '1000',
      currentStock: '1000',
      isAvailable: 'true',
    }))
      form.append(k, v)
    form.append('coverImageFile', new Blob([cover], { type: 'image/webp' }), 'cover.webp')
    if (product.type === 'DIGITAL')
      form.append('digitalFile', new Blob([pdf], { type: 'application/pdf' }), 'book.pdf')
    const res = await fetch(`${base}/api/admin/products`, {
      method: 'POST',
      headers: adminHeaders(),
      body: form,
    })
    if (res.status !== 201)
      throw new Error(`adding ${product.name}: ${res.status} ${await res.text()}`)
  }
}

/** A book cover like the ones owners upload: 800 x 1200, drawn, as WebP. */
async function coverImage() {
  const { default: sharp } = await import('sharp')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="1200">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1d3557"/><stop offset="1" stop-color="#457b9d"/></linearGradient></defs>
    <rect width="800" height="1200" fill="url(#g)"/>
    <text x="400" y="560" font-size="72" fill="#f1faee" text-anchor="middle" font-family="serif">The Dual Vote</text>
    <text x="400" y="660" font-size="72" fill="#f1faee" text-anchor="middle" font-family="serif">Handbook</text>
  </svg>`
  return sharp(Buffer.from(svg)).webp({ quality: 82 }).toBuffer()
}

/** Sets a product's total and current stock through the admin API (its other fields unchanged). */
export async function adminSetStock(product, stock) {
  const form = new FormData()
  for (const [k, v] of Object.entries({
    name: product.name,
    type: product.type,
    priceEUR: String(product.priceEUR),
    totalStock: String(stock),
    currentStock: String(stock),
    shortDescription: product.shortDescription,
    isAvailable: 'true',
  }))
    form.append(k, v)
  const res = await fetch(`${base}/api/admin/products/${product.id}`, {
    method: 'PUT',
    headers: adminHeaders(),
    body: form,
  })
  if (!res.ok) throw new Error(`stock update failed: ${res.status} ${await res.text()}`)
}
