import { useNavigate } from '@tanstack/react-router'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { UserRoundX } from 'lucide-react'
import { Brand } from '@/components/brand'
import { Button } from '@/components/ui/button'
import { accountsQueryOptions } from '@/lib/api/get-accounts'
import { useSignout } from '@/lib/api/signout'
import { rememberAccount } from '@/lib/session'

/**
 * An account the user cannot open (its read is 404): they were removed
 * from it, left it, or the link is wrong (issue 26: a removal ends access
 * at once). Offers the accounts they do belong to, and signing out.
 */
export function NoAccessPage({ accountId }: { accountId: string }) {
  const { t } = useTranslation('dashboard-shell')
  const navigate = useNavigate()
  const signout = useSignout()
  const { data } = useQuery(accountsQueryOptions())
  const others = (data?.accounts ?? []).filter((a) => a.id !== accountId)

  const open = (id: string) => {
    rememberAccount(id)
    void navigate({ to: '/dashboard/$accountId/testimonials', params: { accountId: id } })
  }

  return (
    <main className="flex min-h-[60vh] flex-col items-center justify-center gap-4 p-6 text-center" data-testid="no-access">
      <Brand />
      <UserRoundX className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
      <h1 className="text-2xl font-semibold">{t('no_access.title')}</h1>
      <p className="max-w-md text-muted-foreground">{t('no_access.text')}</p>
      {others.length > 0 && (
        <nav aria-label={t('no_access.accounts')} className="grid w-full max-w-xs gap-2">
          {others.map((account) => (
            <Button key={account.id} variant="outline" onClick={() => open(account.id)}>
              {t('no_access.open', { name: account.name || t('switcher.unnamed') })}
            </Button>
          ))}
        </nav>
      )}
      <Button variant={others.length > 0 ? 'ghost' : 'default'} loading={signout.isPending} onClick={() => signout.mutate()}>
        {t('user_menu.signout')}
      </Button>
    </main>
  )
}
