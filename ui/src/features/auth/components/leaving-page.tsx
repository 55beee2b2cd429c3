import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { CancelDeletionDialog } from '@/components/cancel-deletion-dialog'
import { LoadFailed } from '@/components/load-failed'
import { PageLoader } from '@/components/page-loader'
import { Button } from '@/components/ui/button'
import { useUserDeletion } from '@/lib/api/deletion'
import { useSignout } from '@/lib/api/signout'
import { formatLongDateTime } from '@/lib/format'
import { rememberAccount } from '@/lib/session'
import { AuthLayout } from './auth-layout'
import { dashboardHome } from '../api/session-schema'

/**
 * Where a user lands who signed in during their own deletion's grace and
 * belongs to no account (issue 35: the sign-in opens none, so nothing they
 * did not ask for blocks their erasure): when they go, cancelling the
 * deletion (re-authenticated; it answers an account of their own, opened
 * at once) and signing out.
 */
export function LeavingPage() {
  const { t, i18n } = useTranslation('privacy')
  const navigate = useNavigate()
  const signout = useSignout()
  const deletion = useUserDeletion()
  const opened = (accountId: string) => {
    if (!accountId) return
    rememberAccount(accountId)
    void navigate(dashboardHome(accountId))
  }

  let body
  if (deletion.isPending) body = <PageLoader />
  else if (deletion.isError) body = (
      <LoadFailed message={t('leaving.failed')} retrying={deletion.isFetching} onRetry={() => void deletion.refetch()} />
    )
  else if (!deletion.data.deletion_at) body = <p role="status">{t('leaving.none')}</p>
  else
    body = (
      <>
        <p role="status">{t('leaving.text', { date: formatLongDateTime(deletion.data.deletion_at, i18n.language) })}</p>
        {deletion.data.blocked_by ? <p role="alert">{t('leaving.blocked', { account: deletion.data.blocked_by })}</p> : null}
        <CancelDeletionDialog target={{ kind: 'user' }} accountId="" passwordOptional onCancelled={opened} />
      </>
    )
  return (
    <AuthLayout title={t('leaving.title')}>
      <div className="grid justify-items-start gap-4" data-testid="leaving">
        {body}
        <Button variant="ghost" loading={signout.isPending} onClick={() => signout.mutate()}>
          {t('leaving.signout')}
        </Button>
      </div>
    </AuthLayout>
  )
}
