/** A field's error message, under the field and linked to it by id. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null
  return (
    <p className="admin-field__error" id={id} role="alert">
      {message}
    </p>
  )
}
