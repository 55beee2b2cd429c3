import { useEffect, useId, useRef, useState } from 'react'
import { Link } from '@tanstack/react-router'
import { useQuery, useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ArrowLeft } from 'lucide-react'
import type { BillingAddressValues } from '@/components/billing-address-form'
import { useDeletionLock } from '@/components/deletion-lock'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { isApiError } from '@/lib/api-client'
import { accountQueryOptions } from '@/lib/api/get-account'
import { membersQueryOptions } from '@/lib/api/get-members'
import { pricingQueryOptions, type Pricing } from '@/lib/api/get-pricing'
import { useSaveBillingAddress } from '@/lib/api/update-billing-address'
import { PAID_PLANS, PLAN_SEATS, type PaidPlan } from '@/lib/constants'
import { queryKeys } from '@/lib/query-keys'
import { paymentRetry } from '@/lib/dunning'
import { canManageBilling } from '@/lib/roles'
import { ScheduledChangeNotice } from '@/components/scheduled-change-notice'
import { useScheduleDowngrade } from '@/lib/api/scheduled-change'
import { useCreateSubscription } from '../api/create-subscription'
import { useUpgradeSubscription } from '../api/update-subscription'
import { usePayLatestUnpaidInvoice } from '../api/latest-unpaid-invoice'
import { BillingDetailsDialog } from './billing-details-dialog'
import { planAction, plansView, type PlanAction } from './plan-actions'
import { PlanCard } from './plan-card'
import { PromotionCode, promotionErrorKey } from './promotion-code'

/**
 * Plans page (SPEC §2): Starter, Pro, Team with prices from the pricing call;
 * texts and buttons follow the account's subscription, which the `for` of the
 * links into it only repeats: opened without it (a bookmark, a typed address)
 * the page offers the same (issue 37). Every action ends on the provider's
 * checkout; a missing billing address first opens the billing modal.
 */
export function PlansPage({ accountId }: { accountId: string }) {
  const { t } = useTranslation('plans')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const { data: listPricing } = useSuspenseQuery(pricingQueryOptions(accountId))
  // Issue 38: the prices less an applied promotion code's discount, which the checkout then gets.
  const [promoted, setPromoted] = useState<Pricing | null>(null)
  const [promotionRefused, setPromotionRefused] = useState<string | null>(null)
  const pricing = promoted ?? listPricing
  const promotionCode = promoted?.promotion?.code
  const start = useCreateSubscription(accountId)
  const upgrade = useUpgradeSubscription(accountId)
  const downgrade = useScheduleDowngrade(accountId)
  const pay = usePayLatestUnpaidInvoice(accountId)
  const saveAddress = useSaveBillingAddress(accountId)
  // The card whose action runs; it stays busy while the browser leaves for the checkout.
  const [busyPlan, setBusyPlan] = useState<PaidPlan | null>(null)
  const [billingFor, setBillingFor] = useState<PaidPlan | null>(null)
  const [billingBusy, setBillingBusy] = useState(false)
  // The card button whose click opened the billing modal: focus goes back there (issue 37).
  const opener = useRef<HTMLElement | null>(null)

  // Back from the checkout through the browser's history cache: nothing runs any more.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (!event.persisted) return
      setBusyPlan(null)
      setBillingBusy(false)
    }
    window.addEventListener('pageshow', onPageShow)
    return () => window.removeEventListener('pageshow', onPageShow)
  }, [])

  const current = data.account.subscription.plan
  // Buying is the owner's (issue 26): others see the plans without buttons, and why.
  const owner = canManageBilling(data.account.role)
  const variant = plansView(data.account.subscription)
  // While a failed renewal is retried the api refuses upgrades (409): the buttons stay, disabled, with why.
  const upgradeBlocked = paymentRetry(data.account.subscription) !== null
  const upgradeBlockedId = useId()
  // During the account's scheduled deletion nothing is bought (issue 37): every button disabled, with why.
  const deletion = useDeletionLock(data.account.deletion_at, 'plan')
  const seatsId = useId()
  // Issue 26: a plan smaller than the team is refused (409 seat_limit); the owner reads the seats
  // to say so on that card before the click, and a refusal all the same says it there too.
  const queryClient = useQueryClient()
  const seats = useQuery({ ...membersQueryOptions(accountId), enabled: owner }).data?.seats
  const [seatRefused, setSeatRefused] = useState<PaidPlan | null>(null)

  const runAction = (action: PlanAction, plan: PaidPlan) => {
    if (action === 'current' || action === 'scheduled') return
    const clearBusy = {
      onError: (error: unknown) => {
        setBusyPlan(null)
        const refused = promotionCode ? promotionErrorKey(error) : null
        if (refused) setPromotionRefused(refused)
        if (!isApiError(error) || error.code !== 'seat_limit') return
        setSeatRefused(plan)
        void queryClient.invalidateQueries({ queryKey: queryKeys.members(accountId) })
      },
    }
    setBusyPlan(plan)
    setSeatRefused(null)
    setPromotionRefused(null)
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    if (action === 'start') {
      start.mutate({ plan, promotionCode }, {
        ...clearBusy,
        onSuccess: (outcome) => {
          if (outcome !== 'billing_address_required') return
          setBusyPlan(null)
          saveAddress.reset()
          setBillingFor(plan)
        },
      })
    } else if (action === 'upgrade') {
      upgrade.mutate({ plan, promotionCode }, clearBusy)
    } else if (action === 'downgrade') {
      // Issue 38: scheduled for the renewal, nothing to pay: the page says so above the cards.
      downgrade.mutate(plan, { ...clearBusy, onSuccess: () => setBusyPlan(null) })
    } else {
      pay.mutate(undefined, clearBusy)
    }
  }

  const submitBillingDetails = async (values: BillingAddressValues) => {
    if (!billingFor) return
    setBillingBusy(true)
    try {
      await saveAddress.mutateAsync(values)
      const outcome = await start.mutateAsync({ plan: billingFor, promotionCode })
      if (outcome !== 'checkout') setBillingBusy(false)
    } catch (error) {
      setBillingBusy(false)
      throw error
    }
  }

  return (
    <section className="mx-auto grid w-full max-w-5xl gap-6 p-4 md:p-8">
      <Link
        to="/dashboard/$accountId/testimonials"
        params={{ accountId }}
        className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:underline"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        {t('back')}
      </Link>
      <header className="grid gap-2 text-center">
        <h1 className="text-3xl font-semibold">{t(`header.${variant}`)}</h1>
        <p className="text-muted-foreground">{t(`subtitle.${variant}`)}</p>
      </header>
      {!owner && (
        <p className="rounded-md border bg-muted/50 p-3 text-center text-sm" data-testid="plans-ask-owner">
          {t('ask_owner')}
        </p>
      )}
      {owner && deletion.notice}
      {upgradeBlocked && variant === 'plan_upgrade' && (
        <p id={upgradeBlockedId} className="rounded-md border border-amber-300 bg-amber-50 p-3 text-center text-sm text-amber-950">
          {t('common:payment_retry.upgrade_blocked')}
        </p>
      )}
      {owner && variant !== 'plan_expired' && (
        <PromotionCode
          accountId={accountId}
          applied={promoted}
          refusedKey={promotionRefused}
          disabled={busyPlan !== null || billingFor !== null}
          onApplied={(next) => {
            setPromoted(next)
            setPromotionRefused(null)
          }}
        />
      )}
      {variant === 'plan_upgrade' && (
        <ScheduledChangeNotice accountId={accountId} subscription={data.account.subscription} canCancel={owner} />
      )}
      <div className="grid gap-4 md:grid-cols-3">
        {PAID_PLANS.map((plan) => {
          const action = owner ? planAction(variant, current, plan, data.account.subscription.scheduled_plan) : null
          const locked = deletion.locked && action !== null && action !== 'current'
          const blocked = upgradeBlocked && action === 'upgrade'
          // Members and pending invitations beyond what this plan allows.
          const over = seats ? seats.used - PLAN_SEATS[plan] : 0
          const tooSmall = action !== null && action !== 'current' && action !== 'scheduled' && (over > 0 || seatRefused === plan)
          const seatsNoticeId = `${seatsId}-${plan}`
          return (
            <PlanCard
              key={plan}
              plan={plan}
              pricing={pricing}
              current={current === plan}
              action={action}
              busy={busyPlan === plan}
              disabled={busyPlan !== null || billingFor !== null || locked || blocked || tooSmall}
              describedBy={locked ? deletion.describedBy : tooSmall ? seatsNoticeId : blocked ? upgradeBlockedId : undefined}
              notice={
                tooSmall && (
                  <p id={seatsNoticeId} role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="plan-too-small">
                    {over > 0
                      ? t('seats.too_small', { count: over, plan: t(`plan.${plan}`), limit: PLAN_SEATS[plan], used: seats?.used })
                      : t('seats.too_small_unknown')}{' '}
                    <Link to="/dashboard/$accountId/team" params={{ accountId }} className="font-medium underline underline-offset-4">
                      {t('seats.team_link')}
                    </Link>
                  </p>
                )
              }
              onAction={runAction}
            />
          )
        })}
      </div>
      <p className="text-center text-xs text-muted-foreground">{t(`footer.${variant}`)}</p>
      <BillingDetailsDialog
        open={billingFor !== null}
        organizationName={data.account.name}
        pending={billingBusy}
        error={saveAddress.error}
        onSubmit={submitBillingDetails}
        onCancel={() => setBillingFor(null)}
        returnFocusTo={opener}
      />
    </section>
  )
}

/** While the route loader fetches the account and the prices: the cards with skeleton prices. */
export function PlansPagePending() {
  return (
    <section className="mx-auto grid w-full max-w-5xl gap-6 p-4 md:p-8" aria-busy="true">
      <Skeleton className="mx-auto h-9 w-72 max-w-full" />
      <div className="grid gap-4 md:grid-cols-3">
        {PAID_PLANS.map((plan) => (
          <PlanCard key={plan} plan={plan} pricing={undefined} current={false} action={null} busy={false} disabled onAction={() => {}} />
        ))}
      </div>
    </section>
  )
}

/** The prices could not be loaded: say so, with a retry. */
export function PlansPageFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('plans')
  return (
    <section className="mx-auto grid w-full max-w-5xl gap-6 p-4 md:p-8">
      <div role="alert" className="flex flex-wrap items-center justify-center gap-3 text-sm text-destructive">
        {t('price.failed')}
        <Button variant="outline" size="sm" onClick={onRetry} loading={retrying}>
          {t('common:actions.try_again')}
        </Button>
      </div>
    </section>
  )
}
