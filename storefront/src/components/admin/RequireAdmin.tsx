import type { ReactNode } from 'react'
import { Navigate, useLocation } from 'react-router-dom'

import { LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { useAdminSession } from '@/lib/admin/admin-session'

/** The guarded group: anyone not signed in goes to the sign-in screen (spec section 6). */
export function RequireAdmin({ children }: { children: ReactNode }) {
  const { status } = useAdminSession()
  const location = useLocation()
  if (status === 'checking') {
    return (
      <div className="admin-centered">
        <LoadingState label="Checking your session…" />
      </div>
    )
  }
  if (status === 'signed-out')
    return <Navigate to={paths.admin.login} replace state={{ from: location.pathname }} />
  return <>{children}</>
}
