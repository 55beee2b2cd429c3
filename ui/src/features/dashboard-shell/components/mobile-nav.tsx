import { useTranslation } from 'react-i18next'
import { Menu as MenuIcon } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { deferredMenu } from '@/components/deferred-menu'

const Menu = deferredMenu(() => import('./mobile-nav-body').then((m) => m.MobileNavBody))

/** Narrow screens: the sidebar's items in a dropdown menu, whose code loads on intent. */
export function MobileNav({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <Menu
      accountId={accountId}
      trigger={
        <Button variant="ghost" size="icon" className="md:hidden" aria-label={t('nav.open_menu')}>
          <MenuIcon aria-hidden="true" />
        </Button>
      }
    />
  )
}
