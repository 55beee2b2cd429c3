import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { SIDEBAR_ITEMS } from './nav-items'

/** Wide screens (md+): the first 6 navigation items. */
export function Sidebar({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <nav
      aria-label={t('nav.label')}
      className="fixed bottom-0 left-0 top-12 z-30 hidden w-56 flex-col gap-1 border-r bg-background p-3 md:flex"
    >
      {SIDEBAR_ITEMS.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          params={{ accountId }}
          className="flex items-center gap-3 rounded-md px-3 py-2 text-sm transition-colors hover:bg-accent hover:text-accent-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          activeProps={{ className: 'bg-accent font-medium text-accent-foreground', 'aria-current': 'page' }}
          inactiveProps={{ className: 'text-slate-600' }}
        >
          <item.icon className="h-4 w-4" aria-hidden="true" />
          <span className="flex-1">{t(`nav.${item.key}`)}</span>
          {item.badge !== undefined && (
            <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
              {item.badge}
            </span>
          )}
        </Link>
      ))}
    </nav>
  )
}
