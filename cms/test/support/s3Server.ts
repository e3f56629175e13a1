import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local server that speaks the part of the S3 REST API the shop uses (path-style PutObject,
 * GetObject, HeadObject, DeleteObject), for tests of STORAGE=s3 with no network: S3 itself is
 * replaced only at the network edge, the AWS SDK and Payload's adapter run as in production.
 * It checks that every request is signed with the expected access key (SigV4), and decodes
 * the SDK's aws-chunked bodies.
 */
export type LocalS3 = {
  endpoint: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** The stored objects, by key (without the bucket). */
  objects: Map<string, { body: Buffer; contentType: string }>
  /** Requests refused for a missing or wrong signature. */
  unsigned: () => number
  close: () => Promise<void>
}

/** Decodes `Content-Encoding: aws-chunked` (hex size;ext\r\n data \r\n ... 0\r\n trailers). */
function decodeAwsChunked(raw: Buffer): Buffer {
  const parts: Buffer[] = []
  let at = 0
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at)
    if (lineEnd < 0) break
    const size = parseInt(raw.subarray(at, lineEnd).toString().split(';')[0]!, 16)
    if (!size) break
    parts.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}

export async function startLocalS3({
  bucket = 'shop-uploads',
  accessKeyId = 'test-access-key',
  secretAccessKey = 'test-secret-key-0123456789',
} = {}): Promise<LocalS3> {
  const objects: LocalS3['objects'] = new Map()
  let unsigned = 0
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://s3.local')
      const [, first, ...rest] = url.pathname.split('/')
      const key = rest.map(decodeURIComponent).join('/')
      const auth = req.headers.authorization ?? ''
      if (!auth.startsWith('AWS4-HMAC-SHA256') || !auth.includes(`Credential=${accessKeyId}/`)) {
        unsigned += 1
        res.writeHead(403, { 'content-type': 'application/xml' })
        res.end('<Error><Code>AccessDenied</Code></Error>')
        return
      }
      if (first !== bucket || !key) {
        res.writeHead(404, { 'content-type': 'application/xml' })
        res.end('<Error><Code>NoSuchBucket</Code></Error>')
        return
      }
      const notFound = () => {
        res.writeHead(404, { 'content-type': 'application/xml' })
        res.end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code></Error>')
      }
      if (req.method === 'PUT') {
        let body = Buffer.concat(chunks)
        if (String(req.headers['content-encoding'] ?? '').includes('aws-chunked'))
          body = Buffer.from(decodeAwsChunked(body))
        objects.set(key, {
          body,
          contentType: String(req.headers['content-type'] ?? 'application/octet-stream'),
        })
        res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` })
        res.end()
        return
      }
      const object = objects.get(key)
      if (req.method === 'DELETE') {
        objects.delete(key)
        res.writeHead(204)
        res.end()
        return
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        if (!object) return notFound()
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': String(object.body.length),
          etag: `"${createHash('md5').update(object.body).digest('hex')}"`,
          'last-modified': new Date().toUTCString(),
        })
        res.end(req.method === 'HEAD' ? undefined : object.body)
        return
      }
      res.writeHead(405)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    unsigned: () => unsigned,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** The settings that point the shop at a local S3. */
export const s3Env = (s3: LocalS3): Record<string, string> => ({
  STORAGE: 's3',
  S3_BUCKET: s3.bucket,
  S3_ENDPOINT: s3.endpoint,
  S3_REGION: 'us-east-1',
  S3_ACCESS_KEY_ID: s3.accessKeyId,
  S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
  S3_FORCE_PATH_STYLE: 'true',
})
