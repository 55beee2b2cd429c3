import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import type { Subscription } from '@/lib/api/get-account'
import { cn } from '@/lib/utils'

/**
 * Notice per subscription status (SPEC §4): trial → free recordings left and
 * a 'looking to upgrade' link; trial/plan expired → a link to the plans page.
 * The links are the owner's (issue 26): others read the status only.
 */
export function SubscriptionNotice({
  accountId,
  subscription,
  owner,
  className,
}: {
  accountId: string
  subscription: Subscription
  /** The signed-in user owns the account (may buy plans). */
  owner: boolean
  className?: string
}) {
  const { t } = useTranslation('dashboard-shell')
  const linkClass = 'font-medium text-primary underline-offset-4 hover:underline'
  const { show_status: status, plan } = subscription

  if (status === 'active' && plan === 'TRIAL') {
    return (
      <p className={cn('items-center gap-2 text-sm', className)} data-testid="trial-banner">
        <span>{t('notice.trials_left', { count: subscription.trials_left })}</span>
        {owner && (
          <Link
          to="/dashboard/$accountId/plans"
          params={{ accountId }}
          search={{ for: 'plan_upgrade' }}
          className={linkClass}
        >
          {t('notice.looking_to_upgrade')}
          </Link>
        )}
      </p>
    )
  }
  if (status === 'trial_expired' || status === 'plan_expired') {
    return (
      <p className={cn('items-center gap-2 text-sm', className)} role="status">
        <span className="text-destructive">{t(`notice.${status}`)}</span>
        {owner && (
          <Link to="/dashboard/$accountId/plans" params={{ accountId }} search={{ for: status }} className={linkClass}>
            {t(`notice.${status}_link`)}
          </Link>
        )}
      </p>
    )
  }
  return null
}
