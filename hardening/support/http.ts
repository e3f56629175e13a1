import http from 'node:http'

export type RawResponse = {
  status: number
  headers: http.IncomingHttpHeaders
  text: string
  ms: number
}

export class RequestHung extends Error {
  constructor(readonly description: string) {
    super(`no answer within the deadline: ${description}`)
    this.name = 'RequestHung'
  }
}

/**
 * One HTTP request with full control over method, path, headers and body bytes (fetch would add
 * or normalise some of them), and a deadline: a request without an answer in time is a hang.
 */
export function rawRequest({
  baseUrl,
  method,
  path,
  headers = {},
  body,
  timeoutMs = 15_000,
}: {
  baseUrl: string
  method: string
  path: string
  headers?: Record<string, string>
  body?: Buffer | string
  timeoutMs?: number
}): Promise<RawResponse> {
  const url = new URL(baseUrl)
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...headers,
          ...(body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          clearTimeout(timer)
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: Date.now() - started,
          })
        })
        res.on('error', (error) => {
          clearTimeout(timer)
          reject(error)
        })
      },
    )
    const timer = setTimeout(() => {
      req.destroy()
      reject(new RequestHung(`${method} ${path}`))
    }, timeoutMs)
    req.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    if (body !== undefined) req.write(body)
    req.end()
  })
}

/** Whether a refusal says why: a JSON error/message/errors, or a non-empty page or text. */
export function hasClearReason(response: RawResponse): boolean {
  // Node's HTTP parser refuses oversized request heads itself; its status line is the reason.
  if (response.status === 431) return true
  // Static folders answer other methods with 405 and the methods they allow.
  if (response.status === 405 && response.headers.allow) return true
  const type = String(response.headers['content-type'] ?? '')
  if (type.includes('application/json')) {
    try {
      const body = JSON.parse(response.text) as Record<string, unknown>
      const texts = [
        body.error,
        body.message,
        (body.errors as { msg?: unknown }[] | undefined)?.[0]?.msg,
      ]
      // The status check's 401 is the spec's own answer: { isAuthenticated: false }.
      if (body.isAuthenticated === false) return true
      return texts.some((t) => typeof t === 'string' && t.trim().length > 0)
    } catch {
      return false
    }
  }
  return response.text.trim().length > 0
}
