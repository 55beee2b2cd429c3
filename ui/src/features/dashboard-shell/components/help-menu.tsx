import { useTranslation } from 'react-i18next'
import { CircleHelp } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { deferredMenu } from '@/components/deferred-menu'

const Menu = deferredMenu(() => import('./help-menu-body').then((m) => m.HelpMenuBody))

/** Help menu; the trigger is drawn with the shell, the menu's code loads on intent. */
export function HelpMenu() {
  const { t } = useTranslation('dashboard-shell')
  return (
    <Menu
      trigger={
        <Button variant="ghost" size="sm">
          <CircleHelp aria-hidden="true" />
          <span className="hidden sm:inline">{t('help.label')}</span>
          <span className="sr-only sm:hidden">{t('help.label')}</span>
        </Button>
      }
    />
  )
}
