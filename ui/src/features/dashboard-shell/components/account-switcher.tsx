import { useNavigate } from '@tanstack/react-router'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import {
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
} from '@/components/ui/dropdown-menu'
import { accountsQueryOptions } from '@/lib/api/get-accounts'
import { queryKeys } from '@/lib/query-keys'
import { rememberAccount } from '@/lib/session'

/**
 * The account switcher (issue 26), part of the user menu: the accounts the
 * user belongs to, the open one checked, each with the user's role and its
 * plan. Choosing one opens its dashboard and makes it the one `/` opens
 * (the api records it as the last used when its account is read). Shown
 * only with more than one account. A menu radio group: arrow keys, Enter,
 * type-ahead, announced as "checked" for the open one.
 */
export function AccountSwitcher({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { data } = useQuery(accountsQueryOptions())
  const accounts = data?.accounts ?? []
  if (accounts.length < 2) return null

  const open = (id: string) => {
    if (id === accountId) return
    rememberAccount(id)
    void navigate({ to: '/dashboard/$accountId/testimonials', params: { accountId: id } }).then(() =>
      queryClient.invalidateQueries({ queryKey: queryKeys.accounts() }),
    )
  }

  return (
    <>
      <DropdownMenuLabel caption>{t('switcher.label')}</DropdownMenuLabel>
      <DropdownMenuRadioGroup value={accountId} onValueChange={open} aria-label={t('switcher.label')}>
        {accounts.map((account) => (
          <DropdownMenuRadioItem key={account.id} value={account.id} data-testid="switch-account">
            <span className="grid min-w-0">
              <span className="truncate">{account.name || t('switcher.unnamed')}</span>
              <span className="text-xs text-muted-foreground">
                {t('switcher.details', {
                  role: t(`switcher.roles.${account.role}`),
                  plan: t(`common:plans.${account.plan}`),
                })}
              </span>
            </span>
          </DropdownMenuRadioItem>
        ))}
      </DropdownMenuRadioGroup>
      <DropdownMenuSeparator />
    </>
  )
}
