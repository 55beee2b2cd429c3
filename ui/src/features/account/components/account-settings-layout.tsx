import type { ReactNode } from 'react'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { RouteTabs } from '@/components/route-tabs'

/** Account settings with the tabs 'your plan' (plan + account details) and 'personal details'. */
export function AccountSettingsLayout({ accountId, children }: { accountId: string; children: ReactNode }) {
  const { t } = useTranslation('account')
  const navigate = useNavigate()
  const pathname = useLocation({ select: (l) => l.pathname })
  const active = pathname.endsWith('/personal-details') ? 'personal-details' : 'plan'
  return (
    <section className="mx-auto grid w-full max-w-4xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <RouteTabs
        label={t('title')}
        active={active}
        tabs={[
          { value: 'plan', label: t('tabs.plan') },
          { value: 'personal-details', label: t('tabs.personal_details') },
        ]}
        onSelect={(value) =>
          void navigate(
            value === 'personal-details'
              ? { to: '/dashboard/$accountId/account-settings/personal-details', params: { accountId } }
              : { to: '/dashboard/$accountId/account-settings/plan', params: { accountId } },
          )
        }
      >
        {children}
      </RouteTabs>
    </section>
  )
}
