import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { ChevronDown, LogOut } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import type { User } from '@/lib/api/get-account'
import { useSignout } from '../api/signout'
import { USER_MENU_ITEMS } from './nav-items'
import { displayName, initials } from './shell-rules'

/** User menu: account settings, billing, preferences, request feature, sign out. */
export function UserMenu({ accountId, user }: { accountId: string; user: User }) {
  const { t } = useTranslation('dashboard-shell')
  const signout = useSignout()
  const name = displayName(user)

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named by what it shows (the name), then what it is: no label that hides the visible text. */}
        <Button variant="ghost" size="sm">
          <span
            aria-hidden="true"
            className="flex h-7 w-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground"
          >
            {initials(user)}
          </span>
          <span className="max-w-40 truncate max-sm:sr-only" data-testid="user-name">
            {name}
          </span>
          <span className="sr-only">{t('user_menu.label')}</span>
          <ChevronDown className="hidden sm:block" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-60">
        <DropdownMenuLabel className="truncate">{name}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {USER_MENU_ITEMS.map((item) => (
          <DropdownMenuItem key={item.key} asChild>
            <Link to={item.to} params={{ accountId }}>
              <item.icon aria-hidden="true" />
              {t(`nav.${item.key}`)}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem
          disabled={signout.isPending}
          onSelect={() => signout.mutate()}
        >
          <LogOut aria-hidden="true" />
          {t('user_menu.signout')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
