import { useState } from 'react'
import type { FormEvent } from 'react'
import { toast } from 'react-toastify'

import { ApiError } from '@/lib/api-client'

import { fieldErrorsOf } from '@/lib/admin/admin-client'
import { changePassword } from '@/lib/admin/session'
import { FieldError } from '@/components/admin/FieldError'
import { useAdminSession } from '@/lib/admin/admin-session'
import { useAdminTitle } from '@/lib/admin/use-admin-title'

export function ProfileRoute() {
  useAdminTitle('Profile')
  const { admin } = useAdminSession()
  const [currentPassword, setCurrentPassword] = useState('')
  const [newPassword, setNewPassword] = useState('')
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [generalError, setGeneralError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setGeneralError(null)
    try {
      await changePassword({ currentPassword, newPassword })
      toast.success('Password changed successfully!')
      setCurrentPassword('')
      setNewPassword('')
      setErrors({})
    } catch (failure) {
      const byField = fieldErrorsOf(failure)
      setErrors(byField)
      const message =
        failure instanceof ApiError
          ? (Object.values(byField)[0] ?? failure.message ?? 'Failed to change password.')
          : 'An unexpected error occurred.'
      if (Object.keys(byField).length === 0) setGeneralError(message)
      toast.error(message)
    } finally {
      setBusy(false)
    }
  }

  const clear = (field: string) => {
    setGeneralError(null)
    setErrors((current) => {
      const next = { ...current }
      delete next[field]
      return next
    })
  }

  return (
    <section className="admin-page">
      <header className="admin-page__header">
        <div>
          <h1>Profile</h1>
          <p className="muted">
            Signed in as <strong>{admin?.email}</strong>
            {admin?.name ? ` (${admin.name})` : ''}.
          </p>
        </div>
      </header>
      <form className="card admin-panel admin-form admin-form--narrow" onSubmit={onSubmit}>
        <h2>Change password</h2>
        {generalError ? (
          <div className="admin-alert admin-alert--error" role="alert">
            {generalError}
          </div>
        ) : null}
        <div className="admin-field">
          <label htmlFor="currentPassword">Current password</label>
          <input
            id="currentPassword"
            type="password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(event) => {
              setCurrentPassword(event.target.value)
              clear('currentPassword')
            }}
            aria-invalid={Boolean(errors.currentPassword)}
            aria-describedby={errors.currentPassword ? 'currentPassword-error' : undefined}
          />
          <FieldError id="currentPassword-error" message={errors.currentPassword} />
        </div>
        <div className="admin-field">
          <label htmlFor="newPassword">New password</label>
          <input
            id="newPassword"
            type="password"
            autoComplete="new-password"
            required
            value={newPassword}
            onChange={(event) => {
              setNewPassword(event.target.value)
              clear('newPassword')
            }}
            aria-invalid={Boolean(errors.newPassword)}
            aria-describedby={errors.newPassword ? 'newPassword-error' : 'newPassword-hint'}
          />
          <p className="admin-field__hint" id="newPassword-hint">
            At least 12 characters, and not easy to guess. Your other sessions are signed out.
          </p>
          <FieldError id="newPassword-error" message={errors.newPassword} />
        </div>
        <div className="admin-form__actions">
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  )
}
