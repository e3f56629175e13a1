import type { ReactNode } from 'react'

/** What a form control needs to be tied to its label, hint and error. */
export type FieldControl = {
  id: string
  'aria-invalid': boolean
  'aria-describedby': string | undefined
}

/**
 * The admin's one form field: label, control, hint and error, tied together by ids so a screen
 * reader reads the error with the control. The control itself (input, select, textarea) is the
 * caller's, given the attributes it needs; `check` puts a checkbox before its label.
 */
export function FormField({
  id,
  label,
  error,
  hint,
  check = false,
  children,
}: {
  id: string
  label: ReactNode
  error?: string
  hint?: ReactNode
  check?: boolean
  children: (control: FieldControl) => ReactNode
}) {
  const control: FieldControl = {
    id,
    'aria-invalid': Boolean(error),
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  }
  const labelElement = <label htmlFor={id}>{label}</label>
  return (
    <div className={check ? 'admin-field admin-field--check' : 'admin-field'}>
      {check ? null : labelElement}
      {children(control)}
      {check ? labelElement : null}
      {hint ? (
        <p className="admin-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="admin-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
