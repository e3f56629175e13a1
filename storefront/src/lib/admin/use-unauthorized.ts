import { useEffect } from 'react'

import { isUnauthorized } from './admin-client'
import { useAdminSession } from './admin-session'

/** When an admin call answers 401, the session is over: back to the sign-in screen. */
export function useSignOutOn401(error: unknown) {
  const { signedOut } = useAdminSession()
  useEffect(() => {
    if (isUnauthorized(error)) signedOut()
  }, [error, signedOut])
}
