import { Controller, useForm, type Control } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { PartyPopper } from 'lucide-react'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Textarea } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { FEATURE_AREAS, FEATURE_PROFILES } from '@/lib/constants'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg } from '@/lib/validators'
import { useSendFeatureRequest } from '../api/feature-request'

const schema = v.object({
  feature_area: v.picklist(FEATURE_AREAS),
  feature_profile: v.picklist(FEATURE_PROFILES),
  feature_description: v.pipe(v.string(), v.trim(), v.nonEmpty(msg.descriptionRequired)),
})

const DEFAULTS = {
  feature_area: FEATURE_AREAS[0],
  feature_profile: FEATURE_PROFILES[0],
  feature_description: '',
}

export function RequestFeaturePage({ accountId }: { accountId: string }) {
  const { t } = useTranslation('feature-request')
  const send = useSendFeatureRequest(accountId)
  const form = useForm({ resolver: valibotResolver(schema), defaultValues: DEFAULTS })
  const { errors } = form.formState

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await send.mutateAsync(values)
    } catch (error) {
      applyFieldErrors(error, form.setError, ['feature_area', 'feature_profile', 'feature_description'])
    }
  })

  return (
    <section className="mx-auto grid w-full max-w-2xl gap-4 p-4 md:p-8">
      <h1 className="text-2xl font-semibold">{t('title')}</h1>
      {send.isSuccess ? (
        <Card>
          <CardHeader className="items-center text-center">
            <PartyPopper className="h-10 w-10 text-primary" aria-hidden="true" />
            <CardTitle>{t('thanks.title')}</CardTitle>
            <CardDescription role="status">{t('thanks.text')}</CardDescription>
          </CardHeader>
          <CardContent className="flex justify-center">
            <Button
              variant="outline"
              onClick={() => {
                form.reset(DEFAULTS)
                send.reset()
              }}
            >
              {t('thanks.another')}
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card>
          <CardHeader>
            <CardDescription>{t('description')}</CardDescription>
          </CardHeader>
          <CardContent>
            <form onSubmit={onSubmit} noValidate className="grid gap-4">
              <EnumSelectField
                control={form.control}
                name="feature_area"
                label={t('area.label')}
                error={errors.feature_area?.message}
                options={FEATURE_AREAS.map((area) => ({ value: area, label: t(`area.${area}`) }))}
              />
              <EnumSelectField
                control={form.control}
                name="feature_profile"
                label={t('profile.label')}
                error={errors.feature_profile?.message}
                options={FEATURE_PROFILES.map((profile) => ({ value: profile, label: t(`profile.${profile}`) }))}
              />
              <FormField
                id="feature-description"
                label={t('description_label')}
                error={errors.feature_description?.message}
              >
                {(control) => (
                  <Textarea {...control} rows={6} placeholder={t('description_placeholder')} {...form.register('feature_description')} />
                )}
              </FormField>
              <FormError error={send.error} />
              <div>
                <Button type="submit" loading={send.isPending}>
                  {t('submit')}
                </Button>
              </div>
            </form>
          </CardContent>
        </Card>
      )}
    </section>
  )
}

type FormValues = v.InferOutput<typeof schema>

/** A labelled dropdown of one of the form's enum fields. */
function EnumSelectField({
  control,
  name,
  label,
  error,
  options,
}: {
  control: Control<FormValues>
  name: 'feature_area' | 'feature_profile'
  label: string
  error?: string
  options: { value: string; label: string }[]
}) {
  return (
    <FormField id={name.replace('_', '-')} label={label} error={error}>
      {(fieldControl) => (
        <Controller
          control={control}
          name={name}
          render={({ field }) => (
            <Select value={field.value} onValueChange={field.onChange}>
              <SelectTrigger {...fieldControl} ref={field.ref} onBlur={field.onBlur}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {options.map((o) => (
                  <SelectItem key={o.value} value={o.value}>
                    {o.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        />
      )}
    </FormField>
  )
}
