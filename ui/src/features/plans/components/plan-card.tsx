import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Check } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import type { Pricing } from '@/lib/api/get-pricing'
import type { PaidPlan } from '@/lib/constants'
import type { PlanAction } from './plan-actions'
import { formatMoney, formatMonthly, formatVatRate, yearlyAmount } from './pricing-format'

// SPEC §9: recording spaces, users, testimonials, other.
const FEATURES: Record<PaidPlan, readonly string[]> = {
  STARTER: ['starter_spaces', 'starter_users', 'starter_testimonials', 'starter_other'],
  PRO: ['pro_spaces', 'pro_users', 'pro_testimonials', 'pro_other'],
  TEAM: ['team_spaces', 'team_users', 'team_testimonials', 'team_other'],
}

/** One plan: a region named after the plan, its price, features and (maybe) a button. */
export function PlanCard({
  plan,
  pricing,
  current,
  action,
  busy,
  disabled,
  describedBy,
  notice,
  onAction,
}: {
  plan: PaidPlan
  /** undefined while the prices load (skeleton). */
  pricing: Pricing | undefined
  current: boolean
  action: PlanAction | null
  busy: boolean
  disabled: boolean
  /** id of the text that says why the button is disabled. */
  describedBy?: string
  /** Said on the card above its button (the team is too large for this plan); give it the id of describedBy. */
  notice?: ReactNode
  onAction: (action: PlanAction, plan: PaidPlan) => void
}) {
  const { t } = useTranslation('plans')
  const name = t(`plan.${plan}`)
  const popular = plan === 'PRO'

  return (
    <Card
      role="region"
      aria-label={name}
      data-plan={plan}
      highlighted={popular}
      className="flex flex-col"
    >
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle large>{name}</CardTitle>
          {popular && (
            <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
              {t('most_popular')}
            </span>
          )}
        </div>
        {/* A fixed slot, filled or not, so the prices of all cards line up. */}
        <div className="h-6">
          {current && (
            <span className="inline-flex rounded-full border px-2 py-0.5 text-xs font-medium" data-testid="current-plan">
              {t('current_plan')}
            </span>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid flex-1 content-start gap-6">
        <PriceBlock plan={plan} pricing={pricing} />
        <ul className="grid gap-2 text-sm" aria-label={t('features_label', { plan: name })}>
          {FEATURES[plan].map((feature) => (
            <li key={feature} className="flex items-start gap-2">
              <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
              {t(`features.${feature}`)}
            </li>
          ))}
        </ul>
      </CardContent>
      {action && (
        <CardFooter stacked>
          {notice}
          <Button
            className="w-full"
            // Only the most popular plan's button is solid: one emphasis per page.
            variant={action !== 'current' && action !== 'scheduled' && action !== 'downgrade' && popular ? 'default' : 'outline'}
            disabled={action === 'current' || action === 'scheduled' || disabled}
            aria-describedby={describedBy}
            loading={busy}
            onClick={() => onAction(action, plan)}
          >
            {t(`actions.${action}`, { plan: name })}
          </Button>
        </CardFooter>
      )}
    </Card>
  )
}

function PriceBlock({ plan, pricing }: { plan: PaidPlan; pricing: Pricing | undefined }) {
  const { t, i18n } = useTranslation('plans')
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'

  if (pricing === undefined) {
    return (
      <div className="grid gap-2" data-testid="price-skeleton">
        <span className="sr-only">{t('price.loading')}</span>
        <Skeleton className="h-10 w-28" />
        <Skeleton className="h-4 w-44" />
        <Skeleton className="h-3 w-32" />
      </div>
    )
  }

  const yearly = yearlyAmount(pricing, plan)
  return (
    <div className="grid gap-1">
      <p>
        <span className="text-4xl font-bold tracking-tight" data-testid="monthly-price">
          {formatMonthly(yearly, pricing.currency, language)}
        </span>
        <span className="text-muted-foreground">{t('price.per_month')}</span>
      </p>
      <p className="text-sm text-muted-foreground" data-testid="yearly-price">
        {t('price.yearly', { amount: formatMoney(yearly, pricing.currency, language) })}
      </p>
      <p className="text-xs text-muted-foreground" data-testid="vat">
        {pricing.reverse_charge
          ? t('price.reverse_charge')
          : pricing.vat_treatment === 'outside_eu_business' || pricing.vat_treatment === 'outside_eu_consumer'
            ? t(`price.${pricing.vat_treatment}`)
            : t('price.vat', { rate: formatVatRate(pricing.vat_rate, language) })}
      </p>
    </div>
  )
}
