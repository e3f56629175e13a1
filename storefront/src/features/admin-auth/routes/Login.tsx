import { adminLoginSchema } from '@shop/domain'
import type { AdminLoginInput } from '@shop/domain'
import { useState } from 'react'
import { Navigate, useNavigate } from 'react-router-dom'
import { toast } from 'react-toastify'

import { AdminBrand } from '@/components/admin/AdminBrand'
import { FormError, InputField } from '@/components/admin/FormField'
import { useZodForm } from '@/lib/admin/form'

import { LoadingState } from '@/components/ui/StatusMessage'
import { paths } from '@/config/paths'

import { useAdminSession } from '@/lib/admin/admin-session'
import { useAdminTitle } from '@/lib/admin/use-admin-title'

export function LoginRoute() {
  useAdminTitle('Sign in')
  const { status, login } = useAdminSession()
  const navigate = useNavigate()
  const form = useZodForm(adminLoginSchema, { defaultValues: { email: '', password: '' } })
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  if (status === 'checking') {
    return (
      <div className="admin-centered">
        <LoadingState label="Checking your session…" />
      </div>
    )
  }
  if (status === 'signed-in' && !busy) return <Navigate to={paths.admin.dashboard} replace />

  const onSubmit = async ({ email, password }: AdminLoginInput) => {
    setBusy(true)
    setError(null)
    const pending = toast.loading('Signing in...')
    try {
      await login(email.trim(), password)
      toast.update(pending, {
        render: 'Login successful!',
        type: 'success',
        isLoading: false,
        autoClose: 3000,
      })
      navigate(paths.admin.dashboard, { replace: true })
    } catch (failure) {
      const message =
        failure instanceof Error && failure.message
          ? failure.message
          : 'Login failed. Please check credentials.'
      setError(message)
      toast.update(pending, { render: message, type: 'error', isLoading: false, autoClose: 3000 })
      setBusy(false)
    }
  }

  return (
    <div className="admin-login">
      <form
        className="card admin-login__card"
        onSubmit={form.handleSubmit(onSubmit)}
        onChange={() => setError(null)}
        noValidate
      >
        <AdminBrand dark />
        <h1 className="admin-login__title">Sign in</h1>
        <p className="muted">Manage the books and orders of the shop.</p>
        <FormError message={error} />
        <InputField
          id="login-email"
          form={form}
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          required
        />
        <InputField
          id="login-password"
          form={form}
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
        />
        <button
          type="submit"
          className="button button--primary admin-login__submit"
          disabled={busy}
        >
          {busy ? 'Signing in...' : 'Sign in'}
        </button>
      </form>
    </div>
  )
}
