import type { FieldValues, Path, UseFormSetError } from 'react-hook-form'
import { isApiError } from './api-client'
import { fieldCodeMessage } from './validators'

/**
 * Puts the server's field error codes ({"fields":{"email":"invalid_email"}})
 * onto the matching form fields. Returns true when at least one was applied.
 */
export function applyFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): boolean {
  if (!isApiError(error)) return false
  let applied = false
  for (const [field, code] of Object.entries(error.fields)) {
    const name = fields.find((f) => f === field)
    if (!name) continue
    setError(name, { type: 'server', message: fieldCodeMessage(code) }, { shouldFocus: !applied })
    applied = true
  }
  return applied
}
