import { useId } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import { PAID_PLANS } from '@/lib/constants'
import { promotionPricingQueryOptions, type Pricing, type PromotionTerms } from '@/lib/api/get-pricing'
import { formatMoney } from './pricing-format'

// Codes are 3 to 40 letters, digits, - or _ (case-insensitive): anything else
// is said at once, without asking the api (and using up a guess).
const codeSchema = v.object({
  promotion_code: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('plans:promotion.errors.required'),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{2,39}$/, 'plans:promotion.errors.promotion_unknown'),
  ),
})

/** The message key of the api's refusal of a code (422 fields.promotion_code, 429), or null for another failure. */
export function promotionErrorKey(error: unknown): string | null {
  if (!isApiError(error)) return null
  if (error.status === 429) return 'plans:promotion.errors.rate_limited'
  const code = error.fields.promotion_code
  return code ? `plans:promotion.errors.${code}` : null
}

/**
 * The plans page's "Promotion code" field (issue 38): applying a code
 * fetches the prices less its discount, which the cards then show; a code
 * that cannot be used is said beside the field (refusedKey: a checkout
 * refused it meanwhile). Once applied, what it does is said with a way to
 * remove it.
 */
export function PromotionCode({
  accountId,
  applied,
  refusedKey,
  disabled,
  onApplied,
}: {
  accountId: string
  applied: Pricing | null
  refusedKey: string | null
  disabled: boolean
  onApplied: (pricing: Pricing | null) => void
}) {
  const { t } = useTranslation('plans')
  const queryClient = useQueryClient()
  const id = useId()
  const form = useForm({ resolver: valibotResolver(codeSchema), defaultValues: { promotion_code: '' } })
  const { errors, isSubmitting } = form.formState
  const onSubmit = form.handleSubmit(async ({ promotion_code }) => {
    try {
      onApplied(await queryClient.fetchQuery(promotionPricingQueryOptions(accountId, promotion_code.toUpperCase())))
    } catch (error) {
      form.setError('promotion_code', { type: 'server', message: promotionErrorKey(error) ?? 'plans:promotion.errors.failed' })
    }
  })

  if (applied?.promotion) {
    return (
      <div className="mx-auto grid w-full max-w-md gap-2 rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950" data-testid="promotion-applied">
        <p role="status">
          <span className="font-semibold">{applied.promotion.code}</span>: <PromotionSummary terms={applied.promotion} currency={applied.currency} />
        </p>
        {refusedKey && <p className="font-medium text-destructive">{t(refusedKey)}</p>}
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          disabled={disabled}
          onClick={() => {
            form.reset({ promotion_code: '' })
            onApplied(null)
          }}
        >
          {t('promotion.remove')}
        </Button>
      </div>
    )
  }
  return (
    <form className="mx-auto flex w-full max-w-md items-end gap-2" onSubmit={onSubmit} noValidate>
      <FormField id={`${id}-code`} className="flex-1" label={t('promotion.label')} error={errors.promotion_code?.message ?? refusedKey ?? undefined}>
        {(control) => <Input {...control} autoComplete="off" autoCapitalize="characters" spellCheck={false} {...form.register('promotion_code')} />}
      </FormField>
      <Button type="submit" variant="outline" loading={isSubmitting} disabled={disabled} className={errors.promotion_code || refusedKey ? 'mb-5' : undefined}>
        {t('promotion.apply')}
      </Button>
    </form>
  )
}

/** What a code does: "20% off Pro and Team, for your first 2 years". */
export function PromotionSummary({ terms, currency }: { terms: PromotionTerms; currency: string }) {
  const { t, i18n } = useTranslation('plans')
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const off =
    terms.percent_off !== undefined
      ? t('promotion.percent_off', { percent: terms.percent_off })
      : t('promotion.amount_off', { amount: formatMoney(terms.amount_off ?? 0, currency, language) })
  const covered = PAID_PLANS.filter((p) => terms.plans.includes(p)).map((p) => t(`plan.${p}`))
  const plans = covered.length > 0 ? new Intl.ListFormat(language, { type: 'conjunction' }).format(covered) : ''
  const duration =
    terms.duration === 'years' ? t('promotion.duration.years', { count: terms.duration_years ?? 1 }) : t(`promotion.duration.${terms.duration}`)
  return <>{plans ? t('promotion.summary_plans', { off, plans, duration }) : t('promotion.summary', { off, duration })}</>
}
