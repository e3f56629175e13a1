import type { ComponentProps, ReactNode } from 'react'
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'

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

/** The props of an input that InputField does not set itself. */
type InputProps = Omit<
  ComponentProps<'input'>,
  'id' | 'name' | 'form' | 'children' | 'aria-invalid' | 'aria-describedby'
>

/**
 * A FormField whose control is an input of a react-hook-form form: registered under `name`
 * (its id too, unless `id` is given), showing that field's error. Every other prop is the
 * input's own (type, autoComplete, required…).
 */
export function InputField<Values extends FieldValues>({
  form,
  name,
  id = name,
  label,
  hint,
  check,
  ...input
}: {
  form: UseFormReturn<Values, unknown, Values>
  name: Path<Values>
  id?: string
  label: ReactNode
  hint?: ReactNode
  check?: boolean
} & InputProps) {
  const { error } = form.getFieldState(name, form.formState)
  return (
    <FormField id={id} label={label} error={error?.message} hint={hint} check={check}>
      {(control) => <input {...control} {...form.register(name)} {...input} />}
    </FormField>
  )
}

/** What went wrong with a form as a whole (not with one field), announced; nothing when all is well. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null
  return (
    <div className="admin-alert admin-alert--error" role="alert">
      {message}
    </div>
  )
}
