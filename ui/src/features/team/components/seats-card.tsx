import { useForm, useWatch } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { ScheduledChangeNotice } from '@/components/scheduled-change-notice'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { isApiError } from '@/lib/api-client'
import type { Subscription } from '@/lib/api/get-account'
import type { Seats } from '@/lib/api/get-members'
import { useChangeSeats } from '@/lib/api/scheduled-change'
import { PLAN_SEATS } from '@/lib/constants'
import { applyFieldErrors } from '@/lib/form-errors'
import { formatLongDate } from '@/lib/format'

/** The most seats a Team plan may have (the api's bound). */
const MAX_SEATS = 1000

const schema = v.object({
  seats: v.pipe(
    v.number('team:seats_card.invalid'),
    v.integer('team:seats_card.invalid'),
    v.minValue(PLAN_SEATS.TEAM, 'team:seats_card.too_few'),
    v.maxValue(MAX_SEATS, 'team:seats_card.invalid'),
  ),
})

/**
 * A Team plan's seats (issue 38), for the owner: more are bought at once
 * through a checkout of the rest of the period, fewer take effect at the
 * renewal (never below the team's size: the api's 409 seat_limit, said
 * here). Shown only on an active Team plan with no lower plan scheduled.
 */
export function SeatsCard({ accountId, subscription, seats }: { accountId: string; subscription: Subscription; seats: Seats }) {
  const { t, i18n } = useTranslation('team')
  const change = useChangeSeats(accountId)
  const current = PLAN_SEATS.TEAM + subscription.extra_seats
  const form = useForm({ resolver: valibotResolver(schema), defaultValues: { seats: current } })
  const { errors } = form.formState
  const wanted = useWatch({ control: form.control, name: 'seats' })
  const renewal = formatLongDate(subscription.plan_renewal_at, i18n.resolvedLanguage ?? i18n.language ?? 'en')

  const onSubmit = form.handleSubmit(async ({ seats: n }) => {
    try {
      await change.mutateAsync(n)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['seats'])
    }
  })

  const hint =
    Number.isInteger(wanted) && wanted > current
      ? t('seats_card.more', { count: wanted - current })
      : Number.isInteger(wanted) && wanted < current
        ? t('seats_card.fewer', { date: renewal })
        : t('seats_card.hint', { included: PLAN_SEATS.TEAM })
  const seatLimit = isApiError(change.error) && change.error.code === 'seat_limit'

  return (
    <Card data-testid="seats-card">
      <CardHeader>
        <CardTitle>{t('seats_card.title')}</CardTitle>
        <CardDescription>{t('seats_card.description', { count: current, used: seats.used })}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <ScheduledChangeNotice accountId={accountId} subscription={subscription} canCancel />
        <form className="grid max-w-sm gap-3" onSubmit={onSubmit} noValidate>
          <FormField id="team-seats" label={t('seats_card.label')} error={errors.seats?.message} hint={hint}>
            {(control) => (
              <Input {...control} type="number" inputMode="numeric" min={PLAN_SEATS.TEAM} max={MAX_SEATS} step={1}
                {...form.register('seats', { valueAsNumber: true })} />
            )}
          </FormField>
          {change.error && !errors.seats ? (
            <FormError error={change.error} messageKey={seatLimit ? 'team:seats_card.seat_limit' : undefined} />
          ) : null}
          <Button type="submit" className="w-fit" loading={change.isPending} disabled={wanted === current}>
            {t('seats_card.submit')}
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
