import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { formatDate } from '@/lib/format'
import { sessionsQueryOptions, useEndSessions, type SessionInfo } from '../api/sessions'

/** "Signed-in devices": every live session, with a sign-out for each and for all others. */
export function SessionsCard({ accountId }: { accountId: string }) {
  const { t } = useTranslation('account')
  const { t: tm } = useTranslation('mfa')
  const { data } = useQuery(sessionsQueryOptions(accountId))
  // "Password + authenticator app", "Google", …; nothing for sessions from before issue 29.
  const method = (s: SessionInfo) => {
    if (!s.sign_in_method) return null
    const first = tm(`session.${s.sign_in_method}`, { defaultValue: s.sign_in_method })
    return s.second_factor
      ? tm('session.with', { method: first, factor: tm(`session.${s.second_factor}`, { defaultValue: s.second_factor }) })
      : first
  }
  const end = useEndSessions(accountId)
  const sessions = data?.sessions ?? []
  const others = sessions.filter((s) => !s.current)

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('sessions.title')}</CardTitle>
        <CardDescription>{t('sessions.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <ul className="grid gap-2">
          {sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3">
              <div className="grid gap-0.5">
                <span className="text-sm font-medium break-all">
                  {s.user_agent || t('sessions.unknown_device')}
                  {s.current ? ` · ${t('sessions.this_device')}` : null}
                </span>
                <span className="text-xs text-muted-foreground">
                  {t('sessions.since', { date: formatDate(s.created_at) })},{' '}
                  {t('sessions.last_seen', { date: formatDate(s.last_seen_at) })}
                </span>
                {method(s) ? <span className="text-xs text-muted-foreground">{method(s)}</span> : null}
              </div>
              {s.current ? null : (
                <Button variant="outline" size="sm" onClick={() => end.mutate(s.id)} disabled={end.isPending}>
                  {t('sessions.end')}
                </Button>
              )}
            </li>
          ))}
        </ul>
        {data && others.length === 0 ? <p className="text-sm text-muted-foreground">{t('sessions.none')}</p> : null}
        <FormError error={end.error} />
        {others.length > 0 ? (
          <div>
            <Button variant="outline" onClick={() => end.mutate(undefined)} loading={end.isPending}>
              {t('sessions.end_others')}
            </Button>
          </div>
        ) : null}
      </CardContent>
    </Card>
  )
}
