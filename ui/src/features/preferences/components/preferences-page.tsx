import { useForm, Controller } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Switch } from '@/components/ui/switch'
import { accountQueryOptions } from '@/lib/api/get-account'
import { useUpdateUser } from '@/lib/api/update-user'
import { currentLanguage, isLanguage, LANGUAGES, setLanguage } from '@/lib/i18n'

const LANGUAGE_NAMES = { en: 'English', nl: 'Nederlands', fr: 'Français' } as const
const languageSchema = v.object({ preferred_language: v.picklist(LANGUAGES) })

export function PreferencesPage({ accountId }: { accountId: string }) {
  const { t } = useTranslation('preferences')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const { user } = data
  const toggle = useUpdateUser(accountId)
  const language = useUpdateUser(accountId)
  const pendingField =
    toggle.isPending && toggle.variables ? (Object.keys(toggle.variables)[0] as string) : null

  const form = useForm({
    resolver: valibotResolver(languageSchema),
    defaultValues: {
      preferred_language: isLanguage(user.preferred_language) ? user.preferred_language : currentLanguage(),
    },
  })
  const onSubmit = form.handleSubmit((values) =>
    language.mutate(values, { onSuccess: () => void setLanguage(values.preferred_language) }),
  )

  const switches = [
    { field: 'opt_in_notifications', checked: user.opt_in_notifications },
    { field: 'opt_in_marketing', checked: user.opt_in_marketing },
  ] as const

  return (
    <section className="mx-auto grid w-full max-w-3xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      <Card>
        <CardHeader>
          <CardTitle>{t('emails.title')}</CardTitle>
          <CardDescription>{t('emails.description')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {switches.map(({ field, checked }) => (
            <div key={field} className="flex items-center justify-between gap-4">
              <div className="grid gap-1">
                <Label htmlFor={field}>{t(`emails.${field}`)}</Label>
                <p id={`${field}-hint`} className="text-xs text-muted-foreground">
                  {t(`emails.${field}_hint`)}
                </p>
              </div>
              <Switch
                id={field}
                aria-describedby={`${field}-hint`}
                checked={pendingField === field ? !checked : checked}
                disabled={pendingField === field}
                onCheckedChange={(value) =>
                  toggle.mutate(field === 'opt_in_notifications' ? { opt_in_notifications: value } : { opt_in_marketing: value })
                }
              />
            </div>
          ))}
          <FormError error={toggle.error} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t('language.title')}</CardTitle>
          <CardDescription>{t('language.description')}</CardDescription>
        </CardHeader>
        <CardContent>
          <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="grid flex-1 gap-1.5">
              <Label htmlFor="preferred-language">{t('language.label')}</Label>
              <Controller
                control={form.control}
                name="preferred_language"
                render={({ field }) => (
                  <Select value={field.value} onValueChange={field.onChange}>
                    <SelectTrigger id="preferred-language" ref={field.ref} onBlur={field.onBlur}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {LANGUAGES.map((lang) => (
                        <SelectItem key={lang} value={lang}>
                          {LANGUAGE_NAMES[lang]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              />
            </div>
            <div className="flex items-center gap-3">
              <Button type="submit" loading={language.isPending}>
                {t('language.submit')}
              </Button>
              {/* The confirmation sits beside the button that saved. */}
              <p role="status" className="text-sm text-green-700 sm:order-first">
                {language.isSuccess ? t('language.saved') : null}
              </p>
            </div>
          </form>
          <div className="mt-2">
            <FormError error={language.error} />
          </div>
        </CardContent>
      </Card>
    </section>
  )
}
