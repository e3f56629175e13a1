import { zodResolver } from '@hookform/resolvers/zod'
import type { FieldValues, Path, UseFormProps, UseFormReturn } from 'react-hook-form'
import { useForm } from 'react-hook-form'
import type { z } from 'zod'

import { fieldErrorsOf } from './admin-client'

/**
 * A react-hook-form form validated by one of the domain's zod contracts, the same schema the
 * admin API parses the request with. Submitted values are the form's own (strings as typed):
 * the API reads them as it reads any request, so nothing is converted twice.
 */
export function useZodForm<Schema extends z.ZodType<unknown, FieldValues>>(
  schema: Schema,
  options: Omit<UseFormProps<z.input<Schema>>, 'resolver'> = {},
): UseFormReturn<z.input<Schema>, unknown, z.input<Schema>> {
  return useForm<z.input<Schema>, unknown, z.input<Schema>>({
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    ...options,
    resolver: zodResolver(schema as never, undefined, { raw: true }) as never,
  })
}

/**
 * Puts the admin API's field errors (`{ errors: [{ path, msg }] }`) under their fields; answers
 * the first one's message, or null when there were none (the caller shows the error as a whole).
 */
export function showServerErrors<Values extends FieldValues>(
  form: UseFormReturn<Values, unknown, Values>,
  error: unknown,
): string | null {
  const byField = Object.entries(fieldErrorsOf(error))
  for (const [path, message] of byField)
    form.setError(path as Path<Values>, { type: 'server', message })
  return byField[0]?.[1] ?? null
}
