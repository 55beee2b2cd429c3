import { useTranslation } from 'react-i18next'
import { BookOpen, LifeBuoy, Rocket } from 'lucide-react'
import type { MenuBodyProps } from '@/components/deferred-menu'
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

/** The help menu itself (loaded on intent by HelpMenu, help-menu.tsx). */
export function HelpMenuBody({ trigger, defaultOpen }: MenuBodyProps) {
  const { t } = useTranslation('dashboard-shell')
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
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
