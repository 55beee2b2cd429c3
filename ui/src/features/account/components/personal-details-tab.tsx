import { useSuspenseQuery } from '@tanstack/react-query'
import { accountQueryOptions } from '@/lib/api/get-account'
import { EmailCard } from './email-card'
import { NamesCard } from './names-card'
import { PasswordCard } from './password-card'
import { SessionsCard } from './sessions-card'

export function PersonalDetailsTab({ accountId }: { accountId: string }) {
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  return (
    <div className="grid gap-4">
      <NamesCard accountId={accountId} user={data.user} />
      {/* Keyed on the address: once a change is confirmed the form shows the new one. */}
      <EmailCard key={data.user.email} accountId={accountId} user={data.user} />
      <PasswordCard accountId={accountId} socialLogin={data.user.social_login} />
      <SessionsCard accountId={accountId} />
    </div>
  )
}
