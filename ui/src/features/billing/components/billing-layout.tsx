import type { ReactNode } from 'react'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { RouteTabs } from '@/components/route-tabs'

export function BillingLayout({ accountId, children }: { accountId: string; children: ReactNode }) {
  const { t } = useTranslation('billing')
  const navigate = useNavigate()
  const pathname = useLocation({ select: (l) => l.pathname })
  const active = pathname.endsWith('/invoices') ? 'invoices' : 'payment-details'
  return (
    <section className="mx-auto grid w-full max-w-5xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <RouteTabs
        label={t('title')}
        active={active}
        tabs={[
          { value: 'invoices', label: t('tabs.invoices') },
          { value: 'payment-details', label: t('tabs.payment_details') },
        ]}
        onSelect={(value) =>
          void navigate(
            value === 'invoices'
              ? { to: '/dashboard/$accountId/billing/invoices', params: { accountId } }
              : { to: '/dashboard/$accountId/billing/payment-details', params: { accountId } },
          )
        }
      >
        {children}
      </RouteTabs>
    </section>
  )
}
