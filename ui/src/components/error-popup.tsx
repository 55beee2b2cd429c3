import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Toast, ToastDescription, ToastTitle } from '@/components/ui/toast'
import { dismissError, useReportedError } from '@/lib/error-store'
import { ERROR_POPUP_MS } from '@/lib/constants'

const KNOWN_STATUSES = new Set([400, 401, 402, 403, 404, 409, 413, 422, 429, 444, 500, 503])

// Codes that narrow a status to something the status's message would say wrongly: a 409
// account_being_deleted (issue 37) or price_changed (a checkout priced again while it was
// being opened) is no edit conflict.
const KNOWN_CODES = new Set(['account_being_deleted', 'price_changed'])

/** i18n key (common namespace) of the popup message for a status (SPEC §8), or for a code that narrows it. */
export function popupMessageKey(status: number, code?: string): string {
  if (code && KNOWN_CODES.has(code)) return `error_popup.code_${code}`
  return KNOWN_STATUSES.has(status) ? `error_popup.status_${status}` : 'error_popup.status_other'
}

/** The SPEC §8 popup: shows the last reported error and hides after 3.5 s. */
export function ErrorPopup() {
  const error = useReportedError()
  const { t } = useTranslation('common')

  useEffect(() => {
    if (!error) return
    const timer = window.setTimeout(() => dismissError(error.id), ERROR_POPUP_MS)
    return () => window.clearTimeout(timer)
  }, [error])

  if (!error) return null
  return (
    <Toast
      role="alert"
      aria-live="assertive"
      variant="destructive"
      onClose={() => dismissError(error.id)}
      closeLabel={t('actions.close')}
    >
      <ToastTitle>{t('error_popup.title')}</ToastTitle>
      <ToastDescription>{t(popupMessageKey(error.status, error.code))}</ToastDescription>
      <ToastDescription>{t('error_popup.try_again')}</ToastDescription>
    </Toast>
  )
}
