import { Link } from '@tanstack/react-router'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { PartyPopper } from 'lucide-react'
import { useDeletionLock } from '@/components/deletion-lock'
import { PaymentRetryMessage } from '@/components/payment-retry-message'
import { ScheduledChangeNotice } from '@/components/scheduled-change-notice'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { accountQueryOptions } from '@/lib/api/get-account'
import { useCheckoutEnded, useCheckoutReturn, type CheckoutOutcome } from '@/lib/checkout-return'
import { paymentRetry } from '@/lib/dunning'
import { formatDate, formatDateTime } from '@/lib/format'
import { canEditAccount, canManageBilling } from '@/lib/roles'
import { AccountNameCard } from './account-name-card'
import { AutoRenewalDialog } from './auto-renewal-dialog'
import { LogoCard } from './logo-card'

export function AccountPlanTab({ accountId, checkout }: { accountId: string; checkout?: CheckoutOutcome }) {
  const { t, i18n } = useTranslation('account')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const subscription = data.account.subscription
  const trial = subscription.plan === 'TRIAL'
  // A failed renewal being retried: the renewal date has passed unpaid, and the api refuses upgrades (409).
  const retry = paymentRetry(subscription)
  const linkClass = 'text-sm font-medium text-primary underline-offset-4 hover:underline'
  const welcome = useCheckoutReturn(accountId, !trial && subscription.show_status === 'active', checkout)
  const planName = t(`common:plans.${subscription.plan}`)
  // Issue 26: the plan is the owner's; the name and logo the owner's and admins'. Others read.
  const owner = canManageBilling(data.account.role)
  const editor = canEditAccount(data.account.role)
  const askOwner = (
    <p className="text-muted-foreground" data-testid="plan-ask-owner">
      {t('plan.ask_owner')}
    </p>
  )
  useCheckoutEnded(accountId, checkout)
  // During the account's scheduled deletion nothing is bought or renewed (issue 37): the
  // buttons are disabled, the reason beside them.
  const deletion = useDeletionLock(data.account.deletion_at, 'plan')
  const lockedButton = (label: string) => (
    <Button variant="link" size="inline" className="w-fit" disabled aria-describedby={deletion.describedBy}>
      {label}
    </Button>
  )

  return (
    <div className="grid gap-4">
      {(checkout === 'cancelled' || checkout === 'failed') && subscription.show_status !== 'processing' && (
        <p role="status" className="rounded-xl border bg-muted/50 p-4 text-sm">
          {t(checkout === 'failed' ? 'plan.checkout_failed' : 'plan.checkout_cancelled')}
        </p>
      )}
      {welcome && (
        <div role="status" className="flex items-start gap-3 rounded-xl border border-emerald-600/30 bg-emerald-50 p-4 text-emerald-900">
          <PartyPopper className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <div className="grid gap-1">
            <p className="font-semibold">{t('plan.welcome.title', { plan: planName })}</p>
            <p className="text-sm">
              {subscription.start_next_period
                ? t('plan.welcome.renews', { plan: planName, date: formatDate(subscription.plan_renewal_at) })
                : t('plan.welcome.until', { plan: planName, date: formatDate(subscription.plan_renewal_at) })}
            </p>
          </div>
        </div>
      )}
      <Card>
        <CardHeader>
          <CardTitle>{t('plan.title')}</CardTitle>
          <CardDescription>{t('plan.current', { plan: t(`common:plans.${subscription.plan}`) })}</CardDescription>
        </CardHeader>
        <CardContent className="grid justify-items-start gap-3 text-sm">
          {trial ? (
            <>
              <p data-testid="trial-end">{t('plan.trial_ends', { date: formatDateTime(subscription.trial_expires_at, i18n.resolvedLanguage ?? i18n.language) })}</p>
              {owner && deletion.locked ? (
                <>
                  {deletion.notice}
                  {lockedButton(t('plan.ready_to_start'))}
                </>
              ) : owner ? (
                <Link to="/dashboard/$accountId/plans" params={{ accountId }} search={{ for: 'trial_expired' }} className={linkClass}>
                  {t('plan.ready_to_start')}
                </Link>
              ) : (
                askOwner
              )}
            </>
          ) : (
            <>
              <p data-testid="plan-period">
                {retry
                  ? t('plan.due_to_renew', { date: formatDate(subscription.plan_renewal_at) })
                  : subscription.start_next_period
                    ? t('plan.renews_on', { date: formatDate(subscription.plan_renewal_at) })
                    : t('plan.stops_on', { date: formatDate(subscription.plan_renewal_at) })}
              </p>
              <ScheduledChangeNotice accountId={accountId} subscription={subscription} canCancel={owner} />
              {owner ? (
                <>
                  {retry && (
                    <p data-testid="plan-payment-retry" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950">
                      <PaymentRetryMessage accountId={accountId} retry={retry} linkClassName="text-amber-950 hover:text-amber-800" />
                    </p>
                  )}
                  {deletion.notice}
                  {retry ? (
                    <p className="text-muted-foreground">{t('common:payment_retry.upgrade_blocked')}</p>
                  ) : deletion.locked ? (
                    lockedButton(t('plan.upgrade'))
                  ) : (
                    <Link to="/dashboard/$accountId/plans" params={{ accountId }} search={{ for: 'plan_upgrade' }} className={linkClass}>
                      {t('plan.upgrade')}
                    </Link>
                  )}
                  <AutoRenewalDialog
                    accountId={accountId}
                    renewing={subscription.start_next_period}
                    plan={t(`common:plans.${subscription.plan}`)}
                    date={formatDate(subscription.plan_renewal_at)}
                    unpaid={retry !== null}
                    lockedBy={deletion.describedBy}
                  />
                </>
              ) : (
                askOwner
              )}
            </>
          )}
        </CardContent>
      </Card>

      <AccountNameCard accountId={accountId} name={data.account.name} editable={editor} />

      {editor && <LogoCard accountId={accountId} />}
    </div>
  )
}
