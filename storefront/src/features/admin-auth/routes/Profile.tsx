import { changePasswordSchema } from '@shop/domain'
import type { ChangePasswordInput } from '@shop/domain'
import { useState } from 'react'
import { toast } from 'react-toastify'

import { AdminPageHeader } from '@/components/admin/AdminPageHeader'
import { FormError, InputField } from '@/components/admin/FormField'
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
  const { isSubmitting } = form.formState
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
      <AdminPageHeader title="Profile">
        <p className="muted">
          Signed in as <strong>{admin?.email}</strong>
          {admin?.name ? ` (${admin.name})` : ''}.
        </p>
      </AdminPageHeader>
      <form
        className="card admin-panel admin-form admin-form--narrow"
        onSubmit={form.handleSubmit(onSubmit)}
        onChange={() => setGeneralError(null)}
        noValidate
      >
        <h2>Change password</h2>
        <FormError message={generalError} />
        <InputField
          form={form}
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
        />
        <InputField
          form={form}
          name="newPassword"
          label="New password"
          hint="At least 12 characters, and not easy to guess. Your other sessions are signed out."
          type="password"
          autoComplete="new-password"
          required
        />
        <div className="admin-form__actions">
          <button type="submit" className="button button--primary" disabled={isSubmitting}>
            {isSubmitting ? 'Saving...' : 'Change password'}
          </button>
        </div>
      </form>
    </section>
  )
}
