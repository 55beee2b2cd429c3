import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { Pencil } from 'lucide-react'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { useUpdateAccountName } from '@/lib/api/update-account'
import { applyFieldErrors } from '@/lib/form-errors'
import { nameMin3Schema } from '@/lib/validators'

const schema = v.object({ name: nameMin3Schema })

/** 'Account details': the account name, edited inline with save / back (owner and admins; others read it). */
export function AccountNameCard({ accountId, name, editable = true }: { accountId: string; name: string; editable?: boolean }) {
  const { t } = useTranslation('account')
  const [editing, setEditing] = useState(false)
  const update = useUpdateAccountName(accountId)
  const form = useForm({ resolver: valibotResolver(schema), defaultValues: { name } })

  const startEditing = () => {
    form.reset({ name })
    update.reset()
    setEditing(true)
  }

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values.name)
      setEditing(false)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['name'])
    }
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('details.title')}</CardTitle>
        <CardDescription>{t('details.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        {editing ? (
          <form onSubmit={onSubmit} noValidate className="grid gap-3">
            <FormField id="account-name" label={t('details.name')} error={form.formState.errors.name?.message}>
              {(control) => <Input {...control} autoFocus {...form.register('name')} />}
            </FormField>
            <FormError error={update.error} />
            <div className="flex gap-2">
              <Button type="submit" loading={update.isPending}>
                {t('common:actions.save')}
              </Button>
              <Button type="button" variant="outline" onClick={() => setEditing(false)}>
                {t('common:actions.back')}
              </Button>
            </div>
          </form>
        ) : (
          <div className="flex items-center justify-between gap-3">
            <div>
              <p className="text-xs text-muted-foreground">{t('details.name')}</p>
              <p className="font-medium" data-testid="account-name">
                {name || '-'}
              </p>
            </div>
            {editable && (
              <Button variant="outline" size="sm" onClick={startEditing}>
                <Pencil aria-hidden="true" />
                {t('common:actions.edit')}
              </Button>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  )
}
