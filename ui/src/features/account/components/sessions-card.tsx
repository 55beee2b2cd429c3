import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { formatDateTime } from '@/lib/format'
import { sessionsQueryOptions, useEndSessions, type SessionInfo } from '../api/sessions'

/**
 * "Signed-in devices": every live session, named by its browser and system
 * ("Chrome on macOS", issue 37; the raw User-Agent when the api's parser
 * does not know it), with its network and times, this device marked; a
 * sign-out for each and for all others.
 */
export function SessionsCard({ accountId }: { accountId: string }) {
  const { t, i18n } = useTranslation('account')
  const { t: tm } = useTranslation('mfa')
  const { data } = useQuery(sessionsQueryOptions(accountId))
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  // "Password + authenticator app", "Google", …; nothing for sessions from before issue 29.
  // A passkey sign-in meets the second factor with the same passkey: it reads "Passkey", once.
  const method = (s: SessionInfo) => {
    if (!s.sign_in_method) return null
    const first = tm(`session.${s.sign_in_method}`, { defaultValue: s.sign_in_method })
    return s.second_factor && s.second_factor !== s.sign_in_method
      ? tm('session.with', { method: first, factor: tm(`session.${s.second_factor}`, { defaultValue: s.second_factor }) })
      : first
  }
  const deviceName = (s: SessionInfo) =>
    s.browser && s.system
      ? t('sessions.device', { browser: s.browser, system: s.system })
      : s.browser || s.system || s.user_agent || t('sessions.unknown_device')
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
            <li
              key={s.id}
              aria-current={s.current ? 'true' : undefined}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border p-3 aria-[current=true]:border-primary"
            >
              <div className="grid gap-0.5">
                <span className="flex flex-wrap items-center gap-2 text-sm font-medium break-all" title={s.user_agent || undefined}>
                  {deviceName(s)}
                  {s.current ? (
                    <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
                      {t('sessions.this_device')}
                    </span>
                  ) : null}
                </span>
                <span className="text-xs text-muted-foreground">
                  {t('sessions.since', { date: formatDateTime(s.created_at, language) })},{' '}
                  {t('sessions.last_seen', { date: formatDateTime(s.last_seen_at, language) })}
                </span>
                {s.network ? (
                  <span className="text-xs text-muted-foreground">{t('sessions.network', { network: s.network })}</span>
                ) : null}
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
