'use client'
import { FieldDescription, FieldError, FieldLabel, useField } from '@payloadcms/ui'
import type { TextFieldClientComponent } from 'payload'

/**
 * The "Current password" box of one's own account page in /cms: a masked input that the server
 * checks before changing the password (hooks/accountChanges.ts). Payload's own PasswordField
 * validates its value as a new password, so it cannot serve here.
 */
export const CurrentPasswordField: TextFieldClientComponent = ({ path, field }) => {
  const { value, setValue, showError, errorMessage } = useField<string>({ path })
  const id = `field-${path.replace(/\./g, '__')}`
  return (
    <div className={`field-type password${showError ? ' error' : ''}`}>
      <FieldLabel htmlFor={id} label={field.label} path={path} />
      <div className="field-type__wrap">
        <FieldError path={path} message={errorMessage} showError={showError} />
        <input
          id={id}
          name={path}
          type="password"
          autoComplete="current-password"
          value={value ?? ''}
          onChange={(event) => setValue(event.target.value)}
        />
      </div>
      <FieldDescription path={path} description={field.admin?.description} />
    </div>
  )
}
