import { Link } from '@tanstack/react-router'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ArrowLeft, Check } from 'lucide-react'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { accountQueryOptions } from '@/lib/api/get-account'
import type { PLANS_FOR } from '@/lib/constants'

const CARDS = [
  { plan: 'STARTER', features: ['starter_spaces', 'starter_users', 'starter_testimonials', 'starter_other'] },
  { plan: 'PRO', popular: true, features: ['pro_spaces', 'pro_users', 'pro_testimonials', 'pro_other'] },
  { plan: 'TEAM', features: ['team_spaces', 'team_users', 'team_testimonials', 'team_other'] },
] as const

/**
 * Plans page. PLACEHOLDER: the cards list the plan features, but prices (GET
 * pricing) and the start / continue / upgrade buttons are later work.
 */
export function PlansPage({ accountId, reason }: { accountId: string; reason?: (typeof PLANS_FOR)[number] }) {
  const { t } = useTranslation('plans')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const variant = reason ?? 'default'
  return (
    <section className="mx-auto grid w-full max-w-5xl gap-6 p-4 md:p-8">
      <Link
        to="/dashboard/$accountId/testimonials"
        params={{ accountId }}
        className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:underline"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
        {t('back')}
      </Link>
      <header className="grid gap-2 text-center">
        <h1 className="text-3xl font-semibold">{t(`header.${variant}`)}</h1>
        <p className="text-muted-foreground">{t(`subtitle.${variant}`)}</p>
      </header>
      <div className="grid gap-4 md:grid-cols-3">
        {CARDS.map((card) => (
          <Card key={card.plan} className={'popular' in card ? 'border-primary shadow-md' : undefined}>
            <CardHeader>
              {'popular' in card && (
                <span className="w-fit rounded-full bg-primary px-2 py-0.5 text-xs text-primary-foreground">
                  {t('most_popular')}
                </span>
              )}
              <CardTitle>{t(`plan.${card.plan}`)}</CardTitle>
              <CardDescription>
                {data.account.subscription.plan === card.plan ? t('current_plan') : t('billed_annually')}
              </CardDescription>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-2 text-sm">
                {card.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-2">
                    <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
                    {t(`features.${feature}`)}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
      <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground" data-testid="placeholder">
        {t('placeholder')}
      </p>
      <p className="text-center text-xs text-muted-foreground">{t(`footer.${variant}`)}</p>
    </section>
  )
}
