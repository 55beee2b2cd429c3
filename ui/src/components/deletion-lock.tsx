import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CalendarX } from 'lucide-react'
import { formatLongDateTime } from '@/lib/format'

/** What a scheduled deletion locks: a plan (buy, upgrade, renewal), adding a payment method or paying an invoice. */
export type DeletionLockPurpose = 'plan' | 'payment_method' | 'invoice'

/** A deletion lock: whether the buttons are disabled, the id of the reason they point to, and the reason. */
export interface DeletionLock {
  locked: boolean
  /** id of the reason, for the disabled buttons' aria-describedby; undefined when nothing is locked. */
  describedBy: string | undefined
  /** The reason, shown beside the buttons (null when nothing is locked). */
  notice: ReactNode
}

/**
 * During the account's scheduled deletion (issue 37) the api refuses what
 * would take or commit money (409 account_being_deleted): the buttons that
 * would ask are disabled beforehand, with the deletion's date and what to
 * do beside them, rather than refused after a click.
 */
export function useDeletionLock(deletionAt: string | null | undefined, purpose: DeletionLockPurpose): DeletionLock {
  const id = useId()
  const { t, i18n } = useTranslation('common')
  if (!deletionAt) return { locked: false, describedBy: undefined, notice: null }
  const date = formatLongDateTime(deletionAt, i18n.resolvedLanguage ?? i18n.language ?? 'en')
  return {
    locked: true,
    describedBy: id,
    notice: (
      <p
        id={id}
        data-testid="deletion-lock"
        className="flex items-start gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950"
      >
        <CalendarX className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <span>{t(`deletion_lock.${purpose}`, { date })}</span>
      </p>
    ),
  }
}
