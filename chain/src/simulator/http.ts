import type http from 'node:http'

/**
 * The simulator's HTTP plumbing: reading a JSON body, sending an answer, a small router the
 * route modules mount their endpoints on, and the record of the WhatsOnChain API requests
 * answered.
 */

const MAX_BODY = 2 * 1024 * 1024
const MAX_RECORDS = 5_000

/** A request the simulator cannot read: answered 400 with its message. */
export class BadRequest extends Error {}

export function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    let size = 0
    const parts: Buffer[] = []
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY) {
        reject(new BadRequest('body too large'))
        req.destroy()
        return
      }
      parts.push(chunk)
    })
    req.on('end', () => {
      try {
        resolve(parts.length ? JSON.parse(Buffer.concat(parts).toString('utf8')) : {})
      } catch {
        reject(new BadRequest('body is not JSON'))
      }
    })
    req.on('error', reject)
  })
}

export function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  type: 'json' | 'text' = 'json',
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    'content-type': type === 'json' ? 'application/json' : 'text/plain',
    ...headers,
  })
  res.end(type === 'json' ? JSON.stringify(body) : String(body))
}

/** What a route's handler is given: the request, its answer, its URL and the path's captures. */
export type RouteCall = {
  req: http.IncomingMessage
  res: http.ServerResponse
  url: URL
  /** What the route's pattern captured, in order (none for a plain path). */
  params: string[]
}

export type RouteHandler = (call: RouteCall) => void | Promise<void>

export type Router = {
  /**
   * Serves `method` requests (any method for '*') whose path is `path`, or matches it (a
   * pattern anchored at both ends).
   */
  on: (method: string, path: string | RegExp, handler: RouteHandler) => void
  /** Serves a request with the first route that takes it; false when none does. */
  serve: (method: string, path: string, call: Omit<RouteCall, 'params'>) => Promise<boolean>
}

export function createRouter(): Router {
  const routes: { method: string; path: string | RegExp; handler: RouteHandler }[] = []
  return {
    on: (method, path, handler) => {
      routes.push({ method, path, handler })
    },
    async serve(method, path, call) {
      for (const route of routes) {
        if (route.method !== '*' && route.method !== method) continue
        const match =
          typeof route.path === 'string'
            ? route.path === path
              ? [path]
              : null
            : route.path.exec(path)
        if (!match) continue
        await route.handler({ ...call, params: match.slice(1) })
        return true
      }
      return false
    },
  }
}

/** One WhatsOnChain API request the simulator answered. */
export type ApiRequestRecord = {
  /** When it arrived (ms since the epoch). */
  at: number
  method: string
  /** The path below /v1/bsv/{network}, with its query. */
  path: string
  authorization?: string
  wocApiKey?: string
  status: number
  /** It came before the Retry-After of an earlier 429 had passed. */
  insideRetryAfter: boolean
}

export type RequestLog = ReturnType<typeof createRequestLog>

/** The WhatsOnChain API requests answered: how many in all, and the last 5,000 of them. */
export function createRequestLog() {
  /** WhatsOnChain API calls answered so far (the benchmark's calls-per-minute count). */
  let answered = 0
  const records: ApiRequestRecord[] = []
  return {
    count: () => answered,
    /** The last requests answered, oldest first. */
    records: () => [...records],
    /**
     * Counts and records an API request as it arrives (`path` below the API's prefix, with its
     * query); its status is filled in once its answer is sent.
     */
    note({
      req,
      res,
      method,
      path,
    }: {
      req: http.IncomingMessage
      res: http.ServerResponse
      method: string
      path: string
    }): ApiRequestRecord {
      answered += 1
      const header = (name: string) => {
        const value = req.headers[name]
        return Array.isArray(value) ? value[0] : value
      }
      const record: ApiRequestRecord = {
        at: Date.now(),
        method,
        path,
        authorization: header('authorization'),
        wocApiKey: header('woc-api-key'),
        status: 0,
        insideRetryAfter: false,
      }
      records.push(record)
      if (records.length > MAX_RECORDS) records.shift()
      res.on('finish', () => (record.status = res.statusCode))
      return record
    },
  }
}
