import type { ReactNode } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import * as v from 'valibot'
import { FormError } from '@/components/form-error'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { COUNTRIES, vatPlaceholder } from '@/lib/constants'
import { applyFieldErrors } from '@/lib/form-errors'
import { msg, nameMin3Schema, requiredText, vatIdSchema } from '@/lib/validators'

export const billingAddressSchema = v.object({
  organization_name: nameMin3Schema,
  street_and_number: requiredText,
  street_additional: v.pipe(v.string(), v.trim()),
  postal_code: requiredText,
  city: requiredText,
  region: requiredText,
  country: v.pipe(
    v.string(),
    v.nonEmpty(msg.countryRequired),
    v.check((value) => (COUNTRIES as readonly string[]).includes(value), msg.countryRequired),
  ),
  vat_id: vatIdSchema,
})

export type BillingAddressValues = v.InferOutput<typeof billingAddressSchema>

const FIELDS = [
  'organization_name',
  'street_and_number',
  'street_additional',
  'postal_code',
  'city',
  'region',
  'country',
  'vat_id',
] as const

export const EMPTY_BILLING_ADDRESS: BillingAddressValues = {
  organization_name: '',
  street_and_number: '',
  street_additional: '',
  postal_code: '',
  city: '',
  region: '',
  country: '',
  vat_id: '',
}

/**
 * Organization / billing address form (onboarding now, billing and the plans
 * modal later). Server field errors (e.g. vat_id: invalid_vat_id) land under
 * their fields; `onSubmit` rejects with the ApiError for that.
 */
export function BillingAddressForm({
  idPrefix,
  defaultValues,
  onSubmit,
  submitLabel,
  pending,
  error,
  secondary,
  status,
}: {
  idPrefix: string
  defaultValues?: Partial<BillingAddressValues>
  onSubmit: (values: BillingAddressValues) => Promise<unknown>
  submitLabel: string
  pending?: boolean
  error?: unknown
  secondary?: ReactNode
  /** What the last submit achieved ("Saved"), shown beside the button that did it. */
  status?: ReactNode
}) {
  const { t } = useTranslation('common')
  const form = useForm({
    resolver: valibotResolver(billingAddressSchema),
    defaultValues: { ...EMPTY_BILLING_ADDRESS, ...defaultValues },
  })
  const { errors } = form.formState
  const country = useWatch({ control: form.control, name: 'country' })

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values)
    } catch (cause) {
      applyFieldErrors(cause, form.setError, FIELDS)
    }
  })

  const text = (name: Exclude<(typeof FIELDS)[number], 'country'>, autoComplete?: string, placeholder?: string) => (
    <FormField id={`${idPrefix}-${name}`} label={t(`billing_address.${name}`)} error={errors[name]?.message}>
      {(control) => <Input {...control} autoComplete={autoComplete} placeholder={placeholder} {...form.register(name)} />}
    </FormField>
  )

  return (
    <form onSubmit={submit} noValidate className="grid gap-3">
      {text('organization_name', 'organization')}
      {text('street_and_number', 'address-line1')}
      {text('street_additional', 'address-line2')}
      <div className="grid items-start gap-3 sm:grid-cols-2">
        {text('postal_code', 'postal-code')}
        {text('city', 'address-level2')}
      </div>
      <div className="grid items-start gap-3 sm:grid-cols-2">
        {text('region', 'address-level1')}
        <FormField id={`${idPrefix}-country`} label={t('billing_address.country')} error={errors.country?.message}>
          {(control) => (
            <Controller
              control={form.control}
              name="country"
              render={({ field }) => (
                <Select value={field.value || undefined} onValueChange={field.onChange}>
                  <SelectTrigger {...control} ref={field.ref} onBlur={field.onBlur}>
                    <SelectValue placeholder={t('billing_address.choose_country')} />
                  </SelectTrigger>
                  <SelectContent>
                    {COUNTRIES.map((code) => (
                      <SelectItem key={code} value={code}>
                        {t(`countries.${code}`)}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            />
          )}
        </FormField>
      </div>
      {text('vat_id', 'off', country ? vatPlaceholder(country) : undefined)}
      <FormError error={error} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:items-center sm:justify-end">
        <div role="status" aria-live="polite" className="text-sm text-green-700 sm:mr-auto">
          {status}
        </div>
        {secondary}
        <Button type="submit" loading={pending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  )
}
