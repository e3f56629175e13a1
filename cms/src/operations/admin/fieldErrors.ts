import type { ZodError } from 'zod'

/** One validation problem, under the form field it belongs to (spec section 5). */
export type FieldError = { path: string; msg: string }

/** A zod error as the spec's list of `{ path, msg }`, one message per field. */
export function toFieldErrors(error: ZodError): FieldError[] {
  const seen = new Set<string>()
  const errors: FieldError[] = []
  for (const issue of error.issues) {
    const path = String(issue.path[0] ?? 'form')
    if (seen.has(path)) continue
    seen.add(path)
    errors.push({ path, msg: issue.message })
  }
  return errors
}
