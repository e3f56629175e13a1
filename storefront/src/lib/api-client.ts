/**
 * The one fetch wrapper of the storefront: same-origin calls with credentials, JSON in and
 * out, and errors that carry the server's `error` (or `message`) field when it has one,
 * otherwise the spec's fallback message for that call (spec section 8).
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly body: unknown = null,
    /** Seconds the server asked us to wait before trying again (a busy 503's Retry-After). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  body?: unknown
  /** The spec's message for this call when the server gives none. */
  fallbackMessage: string
  signal?: AbortSignal
  headers?: Record<string, string>
}

function serverMessage(body: unknown): string | null {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown }
    if (typeof error === 'string' && error) return error
    if (typeof message === 'string' && message) return message
  }
  return null
}

export async function apiRequest<T>(path: string, options: RequestOptions): Promise<T> {
  const { method = 'GET', body, fallbackMessage, signal, headers = {} } = options
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData
  let response: Response
  try {
    response = await fetch(path, {
      method,
      credentials: 'include',
      signal,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    })
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error
    throw new ApiError(fallbackMessage, null)
  }
  const text = await response.text()
  let parsed: unknown = null
  if (text) {
    try {
      parsed = JSON.parse(text)
    } catch {
      parsed = null
    }
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get('Retry-After'))
    throw new ApiError(
      serverMessage(parsed) ?? fallbackMessage,
      response.status,
      parsed,
      Number.isInteger(retryAfter) && retryAfter > 0 ? retryAfter : null,
    )
  }
  return parsed as T
}

export const api = {
  get: <T>(path: string, fallbackMessage: string, signal?: AbortSignal) =>
    apiRequest<T>(path, { fallbackMessage, signal }),
  post: <T>(path: string, body: unknown, fallbackMessage: string) =>
    apiRequest<T>(path, { method: 'POST', body, fallbackMessage }),
  put: <T>(path: string, body: unknown, fallbackMessage: string) =>
    apiRequest<T>(path, { method: 'PUT', body, fallbackMessage }),
  delete: <T>(path: string, fallbackMessage: string) =>
    apiRequest<T>(path, { method: 'DELETE', fallbackMessage }),
}
