import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { CalendarX } from 'lucide-react'
import type { AccountData } from '@/lib/api/get-account'
import { formatDateTime } from '@/lib/format'

// The cancel dialog (a form with its validation) loads only when a deletion
// is scheduled: the banner sits on every dashboard page, nearly all of which
// have none, and the dashboard's first load has a size budget.
const CancelDeletionDialog = lazy(() =>
  import('@/components/cancel-deletion-dialog').then((m) => ({ default: m.CancelDeletionDialog })),
)

/**
 * A scheduled deletion (issue 28) above every dashboard page: the
 * account's (its owner can cancel it here; the others are told when they
 * lose access) and the user's own (they can cancel it; and what keeps it
 * waiting, issue 35). Cancelling asks for the password (issue 35). Not
 * dismissible: it goes when the deletion is cancelled.
 */
export function DeletionBanner({ accountId, data }: { accountId: string; data: AccountData }) {
  const { t, i18n } = useTranslation('dashboard-shell')
  // The hour matters on the day of the erasure (issue 37): SPEC's date with the time.
  const when = (iso: string | null | undefined) => formatDateTime(iso, i18n.language)
  const owner = data.account.role === 'owner'
  const rows = []
  if (data.account.deletion_at) {
    rows.push(
      <Row key="account" text={t(owner ? 'deletion.account_owner' : 'deletion.account_member', { date: when(data.account.deletion_at) })}>
        {owner ? (
          <Suspense fallback={null}>
            <CancelDeletionDialog
              target={{ kind: 'account', accountId }}
              accountId={accountId}
              passwordOptional={data.user.social_login}
              stoppedRenewal={data.account.deletion_stopped_renewal}
              size="sm"
            />
          </Suspense>
        ) : null}
      </Row>,
    )
  }
  if (data.user.deletion_at) {
    const blockedBy = data.user.deletion_blocked_by
    rows.push(
      <Row
        key="user"
        text={
          blockedBy
            ? t('deletion.user_blocked', { date: when(data.user.deletion_at), account: blockedBy })
            : t('deletion.user', { date: when(data.user.deletion_at) })
        }
      >
        <Suspense fallback={null}>
          <CancelDeletionDialog target={{ kind: 'user' }} accountId={accountId} passwordOptional={data.user.social_login} size="sm" />
        </Suspense>
      </Row>,
    )
  }
  return rows.length ? <>{rows}</> : null
}

function Row({ text, children }: { text: string; children: React.ReactNode }) {
  return (
    <div
      role="alert"
      data-testid="deletion-banner"
      className="flex flex-wrap items-center gap-2 border-b border-red-300 bg-red-50 px-4 py-2 text-sm text-red-950"
    >
      <CalendarX className="h-4 w-4 shrink-0" aria-hidden="true" />
      <p className="flex-1">{text}</p>
      {children}
    </div>
  )
}
