import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import type { MenuBodyProps } from '@/components/deferred-menu'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { SIDEBAR_ITEMS } from './nav-items'

/** The narrow screens' menu itself (loaded on intent by MobileNav, mobile-nav.tsx). */
export function MobileNavBody({ accountId, trigger, defaultOpen }: { accountId: string } & MenuBodyProps) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="w-56">
        {SIDEBAR_ITEMS.map((item) => (
          <DropdownMenuItem key={item.key} asChild>
            <Link to={item.to} params={{ accountId }}>
              <item.icon aria-hidden="true" />
              <span className="flex-1">{t(`nav.${item.key}`)}</span>
              {item.badge !== undefined && (
                <span className="rounded-full bg-primary px-2 py-0.5 text-xs text-primary-foreground">{item.badge}</span>
              )}
            </Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
