import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'
import crypto from 'node:crypto'
import sharp from 'sharp'

/** Files made at seed time, so the repository carries no binaries. */

export async function makePdf({
  title,
  lines,
}: {
  title: string
  lines: string[]
}): Promise<Buffer> {
  const pdf = await PDFDocument.create()
  pdf.setTitle(title)
  pdf.setCreator('Book Shop seed')
  const page = pdf.addPage([595, 842])
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  page.drawText(title, {
    x: 56,
    y: 770,
    size: 20,
    font: bold,
    color: rgb(0.1, 0.15, 0.3),
    maxWidth: 480,
  })
  let y = 720
  for (const line of lines) {
    page.drawText(line, { x: 56, y, size: 12, font: regular, maxWidth: 480, lineHeight: 16 })
    y -= 40
  }
  return Buffer.from(await pdf.save())
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`)

/** A book cover drawn from SVG: a coloured band, the title and the edition. */
export async function makeCover({
  title,
  edition,
  hue,
}: {
  title: string
  edition: string
  hue: number
}): Promise<Buffer> {
  const words = title.split(' ')
  const lines: string[] = []
  for (const word of words) {
    const last = lines[lines.length - 1]
    if (last && (last + ' ' + word).length <= 16) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  const titleSvg = lines
    .map(
      (line, i) =>
        `<text x="60" y="${260 + i * 62}" font-size="52" font-weight="700" fill="#fff" font-family="DejaVu Serif, serif">${escapeXml(line)}</text>`,
    )
    .join('')
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="900" viewBox="0 0 600 900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="hsl(${hue},55%,28%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},60%,14%)"/>
    </linearGradient></defs>
    <rect width="600" height="900" fill="url(#g)"/>
    <rect x="40" y="40" width="520" height="820" fill="none" stroke="rgba(255,255,255,0.35)" stroke-width="2"/>
    <circle cx="470" cy="150" r="56" fill="none" stroke="#f5c04a" stroke-width="6"/>
    <circle cx="420" cy="150" r="56" fill="none" stroke="#f5c04a" stroke-width="6"/>
    ${titleSvg}
    <text x="60" y="800" font-size="28" fill="#f5c04a" font-family="DejaVu Sans, sans-serif">${escapeXml(edition)}</text>
  </svg>`
  return sharp(Buffer.from(svg)).webp({ quality: 82 }).toBuffer()
}

/** A PEM-encoded public key (a fresh P-256 key for test mode; editors replace it in the CMS). */
export function makePublicKeyPem(): Buffer {
  const { publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' })
  return Buffer.from(publicKey.export({ type: 'spki', format: 'pem' }).toString())
}
