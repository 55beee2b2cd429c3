import { useTranslation } from 'react-i18next'
import { ChevronDown } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { deferredMenu } from '@/components/deferred-menu'
import type { User } from '@/lib/api/get-account'
import type { Role } from '@/lib/roles'
import { displayName } from '@/lib/names'
import { initials } from './shell-rules'

const Menu = deferredMenu(() => import('./user-menu-body').then((m) => m.UserMenuBody))

/**
 * User menu: the account switcher (with more than one account), account
 * settings, billing (the owner's), preferences, request feature, sign out.
 * The trigger is drawn with the shell; the menu's code loads on intent.
 */
export function UserMenu({ accountId, user, role }: { accountId: string; user: User; role: Role }) {
  const { t } = useTranslation('dashboard-shell')
  const name = displayName(user)
  return (
    <Menu
      accountId={accountId}
      user={user}
      role={role}
      trigger={
        // Named by what it shows (the name), then what it is: no label that hides the visible text.
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
      }
    />
  )
}
