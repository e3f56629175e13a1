import { changePasswordSchema } from '@shop/domain'
import type { ChangePasswordInput } from '@shop/domain'
import { useState } from 'react'
import { toast } from 'react-toastify'

import { FormField } from '@/components/admin/FormField'
import { useAdminSession } from '@/lib/admin/admin-session'
import { showServerErrors, useZodForm } from '@/lib/admin/form'
import { changePassword } from '@/lib/admin/session'
import { useAdminTitle } from '@/lib/admin/use-admin-title'
import { ApiError } from '@/lib/api-client'

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '' }

export function ProfileRoute() {
  useAdminTitle('Profile')
  const { admin } = useAdminSession()
  const form = useZodForm(changePasswordSchema, { defaultValues: EMPTY })
  const { errors, isSubmitting } = form.formState
  const [generalError, setGeneralError] = useState<string | null>(null)

  const onSubmit = async (values: ChangePasswordInput) => {
    setGeneralError(null)
    try {
      await changePassword(values)
      toast.success('Password changed successfully!')
      form.reset(EMPTY)
    } catch (failure) {
      const first = showServerErrors(form, failure)
      const message =
        failure instanceof ApiError
          ? (first ?? failure.message ?? 'Failed to change password.')
          : 'An unexpected error occurred.'
      if (first === null) setGeneralError(message)
      toast.error(message)
    }
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
      <form
        className="card admin-panel admin-form admin-form--narrow"
        onSubmit={form.handleSubmit(onSubmit)}
        onChange={() => setGeneralError(null)}
        noValidate
      >
        <h2>Change password</h2>
        {generalError ? (
          <div className="admin-alert admin-alert--error" role="alert">
            {generalError}
          </div>
        ) : null}
        <FormField
          id="currentPassword"
          label="Current password"
          error={errors.currentPassword?.message}
        >
          {(control) => (
            <input
              {...control}
              {...form.register('currentPassword')}
              type="password"
              autoComplete="current-password"
              required
            />
          )}
        </FormField>
        <FormField
          id="newPassword"
          label="New password"
          error={errors.newPassword?.message}
          hint="At least 12 characters, and not easy to guess. Your other sessions are signed out."
        >
          {(control) => (
            <input
              {...control}
              {...form.register('newPassword')}
              type="password"
              autoComplete="new-password"
              required
            />
          )}
        </FormField>
        <div className="admin-form__actions">
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  )
}
