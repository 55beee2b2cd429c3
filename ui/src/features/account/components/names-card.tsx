import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { Check } from 'lucide-react'
import * as v from 'valibot'
import { FormField } from '@/components/form-field'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import type { User } from '@/lib/api/get-account'
import { useUpdateUser } from '@/lib/api/update-user'
import { applyFieldErrors } from '@/lib/form-errors'
import { knownName } from '@/lib/names'
import { requiredText } from '@/lib/validators'

const schema = v.object({ firstname: requiredText, lastname: requiredText })
type NameField = 'firstname' | 'lastname'

/** First and last name, each saved on blur when changed and valid. */
export function NamesCard({ accountId, user }: { accountId: string; user: User }) {
  const { t } = useTranslation('account')
  const update = useUpdateUser(accountId)
  const [saved, setSaved] = useState<NameField | null>(null)
  const form = useForm({
    resolver: valibotResolver(schema),
    defaultValues: { firstname: knownName(user.firstname), lastname: knownName(user.lastname) },
  })
  const { errors } = form.formState

  const save = async (field: NameField) => {
    setSaved(null)
    if (!(await form.trigger(field))) return
    const value = form.getValues(field).trim()
    if (value === user[field]) return
    const patch = field === 'firstname' ? { firstname: value } : { lastname: value }
    update.mutate(patch, {
      onSuccess: () => setSaved(field),
      onError: (error) => applyFieldErrors(error, form.setError, [field]),
    })
  }

  const savedHint = (field: NameField) =>
    saved === field ? (
      <span className="inline-flex items-center gap-1 text-green-700">
        <Check className="h-3 w-3" aria-hidden="true" />
        {t('personal.saved')}
      </span>
    ) : undefined

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('personal.title')}</CardTitle>
        <CardDescription>{t('personal.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form noValidate onSubmit={(event) => event.preventDefault()} className="grid items-start gap-4 sm:grid-cols-2">
          <FormField id="firstname" label={t('personal.firstname')} error={errors.firstname?.message} hint={savedHint('firstname')}>
            {(control) => (
              <Input
                {...control}
                autoComplete="given-name"
                {...form.register('firstname', { onBlur: () => void save('firstname') })}
              />
            )}
          </FormField>
          <FormField id="lastname" label={t('personal.lastname')} error={errors.lastname?.message} hint={savedHint('lastname')}>
            {(control) => (
              <Input
                {...control}
                autoComplete="family-name"
                {...form.register('lastname', { onBlur: () => void save('lastname') })}
              />
            )}
          </FormField>
        </form>
      </CardContent>
    </Card>
  )
}
