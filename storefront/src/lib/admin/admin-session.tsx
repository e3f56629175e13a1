import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import type { ReactNode } from 'react'
import { toast } from 'react-toastify'

import type { Admin } from './session'
import { getStatus, login as loginCall, logout as logoutCall, SessionError } from './session'

type SessionState = { status: 'checking' | 'signed-in' | 'signed-out'; admin: Admin | null }

type AdminSession = SessionState & {
  login: (email: string, password: string) => Promise<Admin>
  logout: () => Promise<void>
  /** After a 401 from any admin call: the session ended on the server. */
  signedOut: () => void
}

const SessionContext = createContext<AdminSession | null>(null)

/** The admin session: checked once on load (spec section 2), changed by login and logout. */
export function AdminSessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'checking', admin: null })

  useEffect(() => {
    let active = true
    getStatus()
      .then((admin) => {
        if (active)
          setState(admin ? { status: 'signed-in', admin } : { status: 'signed-out', admin: null })
      })
      .catch((error: unknown) => {
        if (!active) return
        toast.error(error instanceof Error ? error.message : 'Failed to get admin status.')
        setState({ status: 'signed-out', admin: null })
      })
    return () => {
      active = false
    }
  }, [])

  const login = useCallback(async (email: string, password: string) => {
    const response = await loginCall(email, password)
    if (!response.success || !response.admin)
      throw new SessionError(response.message || 'Login failed due to server error.', 200)
    setState({ status: 'signed-in', admin: response.admin })
    return response.admin
  }, [])

  const logout = useCallback(async () => {
    try {
      await logoutCall()
    } catch (error) {
      // Already signed out on the server: the local session ends too.
      if (!(error instanceof SessionError && error.status === 401)) throw error
    }
    setState({ status: 'signed-out', admin: null })
  }, [])

  const signedOut = useCallback(() => setState({ status: 'signed-out', admin: null }), [])

  const value = useMemo(
    () => ({ ...state, login, logout, signedOut }),
    [state, login, logout, signedOut],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}

export function useAdminSession(): AdminSession {
  const session = useContext(SessionContext)
  if (!session) throw new Error('useAdminSession() outside AdminSessionProvider.')
  return session
}
