import { useTranslation } from 'react-i18next'
import { CalendarX } from 'lucide-react'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import type { AccountData } from '@/lib/api/get-account'
import { useCancelDeletion } from '@/lib/api/deletion'
import { formatDate } from '@/lib/format'

/**
 * A scheduled deletion (issue 28) above every dashboard page: the
 * account's (its owner can cancel it here; the others are told when they
 * lose access) and the user's own (they can cancel it). Not dismissible:
 * it goes when the deletion is cancelled.
 */
export function DeletionBanner({ accountId, data }: { accountId: string; data: AccountData }) {
  const { t } = useTranslation('dashboard-shell')
  const owner = data.account.role === 'owner'
  const cancelAccount = useCancelDeletion({ kind: 'account', accountId }, accountId)
  const cancelUser = useCancelDeletion({ kind: 'user' }, accountId)
  const rows = []
  if (data.account.deletion_at) {
    rows.push(
      <Row key="account" text={t(owner ? 'deletion.account_owner' : 'deletion.account_member', { date: formatDate(data.account.deletion_at) })}>
        {owner ? (
          <Button size="sm" variant="outline" onClick={() => cancelAccount.mutate()} loading={cancelAccount.isPending}>
            {t('deletion.cancel_account')}
          </Button>
        ) : null}
        <FormError error={cancelAccount.error} />
      </Row>,
    )
  }
  if (data.user.deletion_at) {
    rows.push(
      <Row key="user" text={t('deletion.user', { date: formatDate(data.user.deletion_at) })}>
        <Button size="sm" variant="outline" onClick={() => cancelUser.mutate()} loading={cancelUser.isPending}>
          {t('deletion.cancel_user')}
        </Button>
        <FormError error={cancelUser.error} />
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
