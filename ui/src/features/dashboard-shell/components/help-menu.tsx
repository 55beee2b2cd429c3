import { useTranslation } from 'react-i18next'
import { BookOpen, CircleHelp, LifeBuoy, Rocket } from 'lucide-react'
import { Button } from '@/components/ui/button'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu'

// Placeholder links until the help content exists (SPEC §2).
const HELP_LINKS = [
  { key: 'get_started', href: '#get-started', icon: Rocket },
  { key: 'documentation', href: '#documentation', icon: BookOpen },
  { key: 'support', href: '#support', icon: LifeBuoy },
] as const

export function HelpMenu() {
  const { t } = useTranslation('dashboard-shell')
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="sm">
          <CircleHelp aria-hidden="true" />
          <span className="hidden sm:inline">{t('help.label')}</span>
          <span className="sr-only sm:hidden">{t('help.label')}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        {HELP_LINKS.map((link) => (
          <DropdownMenuItem key={link.key} asChild>
            <a href={link.href}>
              <link.icon aria-hidden="true" />
              {t(`help.${link.key}`)}
            </a>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
