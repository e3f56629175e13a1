import { ApiError, apiRequest } from '@/lib/api-client'

/**
 * The admin area's calls: the storefront's one fetch wrapper (credentials included) plus the
 * header the admin API's CSRF guard requires on every call.
 */
export const ADMIN_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' }

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

export function adminRequest<T>(
  method: Method,
  path: string,
  fallbackMessage: string,
  body?: unknown,
): Promise<T> {
  return apiRequest<T>(`/api/admin${path}`, {
    method,
    body,
    fallbackMessage,
    headers: ADMIN_HEADERS,
  })
}

/** A field error of the admin API (spec section 5): shown under the field named by `path`. */
export type FieldError = { path: string; msg: string }

export function fieldErrorsOf(error: unknown): Record<string, string> {
  const body = error instanceof ApiError ? error.body : null
  const list = body && typeof body === 'object' ? (body as { errors?: unknown }).errors : null
  const result: Record<string, string> = {}
  if (Array.isArray(list)) {
    for (const item of list as Partial<FieldError>[]) {
      if (typeof item?.path === 'string' && typeof item.msg === 'string' && !result[item.path])
        result[item.path] = item.msg
    }
  }
  return result
}

/** True when the request never got an answer (network down, server unreachable). */
export const isNoResponse = (error: unknown) => error instanceof ApiError && error.status === null

export const NO_RESPONSE = 'No response from server. Please check your network connection.'

/** Runs an admin call; a call that got no answer fails with the spec's network message. */
export async function withNetworkFallback<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (isNoResponse(error)) throw new Error(NO_RESPONSE, { cause: error })
    throw error
  }
}

export const isUnauthorized = (error: unknown) => error instanceof ApiError && error.status === 401

export function messageOf(error: unknown, fallback: string): string {
  return error instanceof Error && error.message ? error.message : fallback
}
