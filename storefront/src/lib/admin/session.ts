import type { ChangePasswordInput } from '@shop/domain'
import { ApiError } from '@/lib/api-client'

import { adminRequest } from './admin-client'

export type Admin = { id: number | string; email: string; name: string | null }
export type LoginResponse = { success: boolean; admin: Admin | null; message: string }
export type StatusResponse = { isAuthenticated: boolean; admin: Admin | null }

/** A failure of one of the session calls, already worded as spec section 8 says. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message)
    this.name = 'SessionError'
  }
}

type Messages = { server: string; noResponse: string; setup: string }

async function sessionCall<T>(run: () => Promise<T>, messages: Messages): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof ApiError) {
      if (error.status === null) throw new SessionError(messages.noResponse, null)
      throw new SessionError(error.message || messages.server, error.status)
    }
    throw new SessionError(messages.setup, null)
  }
}

export function login(email: string, password: string): Promise<LoginResponse> {
  return sessionCall(
    () =>
      adminRequest<LoginResponse>('POST', '/login', 'Login failed due to server error.', {
        email,
        password,
      }),
    {
      server: 'Login failed due to server error.',
      noResponse: 'No response from server. Please check your network connection.',
      setup: 'Error setting up login request.',
    },
  )
}

export function logout(): Promise<void> {
  return sessionCall(() => adminRequest<void>('POST', '/logout', 'Logout failed.'), {
    server: 'Logout failed.',
    noResponse: 'No response from server during logout.',
    setup: 'Error during logout request.',
  })
}

/** The session check: null when not signed in (a 401 is an answer, not an error). */
export async function getStatus(): Promise<Admin | null> {
  try {
    const status = await sessionCall(
      () => adminRequest<StatusResponse>('GET', '/status', 'Failed to get admin status.'),
      {
        server: 'Failed to get admin status.',
        noResponse: 'No response from server for admin status check.',
        setup: 'Error during admin status check request.',
      },
    )
    return status.isAuthenticated && status.admin ? status.admin : null
  } catch (error) {
    if (error instanceof SessionError && (error.status === 401 || error.status === 403)) return null
    throw error
  }
}

export function changePassword(
  input: ChangePasswordInput,
): Promise<{ success: boolean; message: string }> {
  return adminRequest('PUT', '/change-password', 'Failed to change password.', input)
}
