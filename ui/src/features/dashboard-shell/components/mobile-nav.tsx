import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { Menu } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import { SIDEBAR_ITEMS } from './nav-items'

/** Narrow screens: the sidebar's items in a dropdown menu. */
export function MobileNav({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('nav.open_menu')}>
          <Menu aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
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
