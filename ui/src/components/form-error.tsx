import { useTranslation } from 'react-i18next'
import { isApiError } from '@/lib/api-client'
import { popupMessageKey } from '@/components/error-popup'

/** The error display attached to a form: what went wrong with the last submit. */
export function FormError({ error, messageKey }: { error?: unknown; messageKey?: string }) {
  const { t } = useTranslation('common')
  if (!error && !messageKey) return null
  const key = messageKey ?? (isApiError(error) ? popupMessageKey(error.status, error.code) : popupMessageKey(500))
  return (
    <p role="alert" className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {t(key)}
    </p>
  )
}
