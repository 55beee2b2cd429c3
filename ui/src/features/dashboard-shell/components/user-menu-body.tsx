import { Link } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { LogOut } from 'lucide-react'
import type { MenuBodyProps } from '@/components/deferred-menu'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'
import type { User } from '@/lib/api/get-account'
import type { Role } from '@/lib/roles'
import { useSignout } from '@/lib/api/signout'
import { AccountSwitcher } from './account-switcher'
import { itemsFor, USER_MENU_ITEMS } from './nav-items'
import { displayName } from '@/lib/names'

/** The user menu itself (loaded on intent by UserMenu, user-menu.tsx). */
export function UserMenuBody({
  accountId,
  user,
  role,
  trigger,
  defaultOpen,
}: { accountId: string; user: User; role: Role } & MenuBodyProps) {
  const { t } = useTranslation('dashboard-shell')
  const signout = useSignout()
  const name = displayName(user)

  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="truncate">{name}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <AccountSwitcher accountId={accountId} />
        {itemsFor(USER_MENU_ITEMS, role).map((item) => (
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
