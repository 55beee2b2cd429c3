import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link2, PartyPopper, Sparkles, Video } from 'lucide-react'
import * as v from 'valibot'
import { BillingAddressForm, type BillingAddressValues } from '@/components/billing-address-form'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { accountQueryOptions } from '@/lib/api/get-account'
import { useUpdateAccountName } from '@/lib/api/update-account'
import { useSaveBillingAddress } from '@/lib/api/update-billing-address'
import { finishOnboarding, isOnboardingOpen } from '@/lib/onboarding-flag'
import { isUnknownName } from '@/lib/names'
import { useUpdateUser } from '@/lib/api/update-user'
import { nameMin3Schema, requiredText } from '@/lib/validators'

export const ONBOARDING_STEPS = ['ACCOUNT', 'BILLING_ADDRESS', 'QUICKSTART'] as const
type Step = (typeof ONBOARDING_STEPS)[number]

const nameSchema = v.object({ name: nameMin3Schema, firstname: v.string(), lastname: v.string() })
// A Google sign-up without names: the first step asks for them too.
const namesSchema = v.object({ name: nameMin3Schema, firstname: requiredText, lastname: requiredText })

/**
 * Onboarding (SPEC §4): ACCOUNT (name) → BILLING_ADDRESS (save, or skip which
 * saves only the name) → QUICKSTART (finish clears the flag and closes).
 */
export function OnboardingWizard({ accountId }: { accountId: string }) {
  const { t } = useTranslation('onboarding')
  const { data } = useSuspenseQuery(accountQueryOptions(accountId))
  const [open, setOpen] = useState(() => isOnboardingOpen(accountId))
  const [step, setStep] = useState<Step>('ACCOUNT')
  const [name, setName] = useState(data.account.name)
  const saveName = useUpdateAccountName(accountId)
  const saveAddress = useSaveBillingAddress(accountId)
  const [action, setAction] = useState<'save' | 'skip' | null>(null)
  const busy = saveName.isPending || saveAddress.isPending
  const askNames = isUnknownName(data.user.firstname) || isUnknownName(data.user.lastname)
  const saveUser = useUpdateUser(accountId)
  const nameForm = useForm({
    resolver: valibotResolver(askNames ? namesSchema : nameSchema),
    defaultValues: { name: data.account.name, firstname: '', lastname: '' },
  })

  if (!open) return null

  const stepIndex = ONBOARDING_STEPS.indexOf(step)
  const onName = nameForm.handleSubmit(async (values) => {
    if (askNames) {
      await saveUser.mutateAsync({ firstname: values.firstname.trim() })
      await saveUser.mutateAsync({ lastname: values.lastname.trim() })
    }
    setName(values.name)
    setStep('BILLING_ADDRESS')
  })
  const onAddress = async (address: BillingAddressValues) => {
    setAction('save')
    await saveName.mutateAsync(name)
    await saveAddress.mutateAsync(address)
    setStep('QUICKSTART')
  }
  const onSkip = () => {
    setAction('skip')
    saveName.mutate(name, { onSuccess: () => setStep('QUICKSTART') })
  }
  const onFinish = () => {
    finishOnboarding(accountId)
    setOpen(false)
  }

  return (
    <Dialog open>
      <DialogContent
        hideClose
        className="sm:max-w-xl"
        onEscapeKeyDown={(event) => event.preventDefault()}
        onInteractOutside={(event) => event.preventDefault()}
      >
        <DialogHeader>
          <p className="text-xs font-medium uppercase text-muted-foreground">
            {t('progress', { step: stepIndex + 1, total: ONBOARDING_STEPS.length })}
          </p>
          <DialogTitle>{t(`${step}.title`)}</DialogTitle>
          <DialogDescription>{t(`${step}.description`)}</DialogDescription>
        </DialogHeader>
        <ol className="flex gap-2" aria-hidden="true">
          {ONBOARDING_STEPS.map((s, index) => (
            <li key={s} className={index <= stepIndex ? 'h-1 flex-1 rounded bg-primary' : 'h-1 flex-1 rounded bg-muted'} />
          ))}
        </ol>

        {step === 'ACCOUNT' && (
          <form onSubmit={onName} noValidate className="grid gap-3">
            {askNames && (
              <div className="grid items-start gap-3 sm:grid-cols-2">
                <FormField id="onboarding-firstname" label={t('ACCOUNT.firstname')} error={nameForm.formState.errors.firstname?.message}>
                  {(control) => <Input {...control} autoFocus autoComplete="given-name" {...nameForm.register('firstname')} />}
                </FormField>
                <FormField id="onboarding-lastname" label={t('ACCOUNT.lastname')} error={nameForm.formState.errors.lastname?.message}>
                  {(control) => <Input {...control} autoComplete="family-name" {...nameForm.register('lastname')} />}
                </FormField>
              </div>
            )}
            <FormField id="onboarding-name" label={t('ACCOUNT.name')} error={nameForm.formState.errors.name?.message}>
              {(control) => <Input {...control} autoFocus={!askNames} autoComplete="organization" {...nameForm.register('name')} />}
            </FormField>
            <div className="flex justify-end">
              <Button type="submit" loading={saveUser.isPending}>{t('next')}</Button>
            </div>
          </form>
        )}

        {step === 'BILLING_ADDRESS' && (
          <BillingAddressForm
            idPrefix="onboarding"
            defaultValues={{ organization_name: name }}
            onSubmit={onAddress}
            submitLabel={t('BILLING_ADDRESS.save')}
            pending={busy && action === 'save'}
            error={saveAddress.error ?? saveName.error}
            secondary={
              <>
                <Button type="button" variant="ghost" onClick={() => setStep('ACCOUNT')}>
                  {t('back')}
                </Button>
                <Button type="button" variant="outline" onClick={onSkip} loading={busy && action === 'skip'} disabled={busy}>
                  {t('BILLING_ADDRESS.skip')}
                </Button>
              </>
            }
          />
        )}

        {step === 'QUICKSTART' && (
          <div className="grid gap-4">
            <ul className="grid gap-3 text-sm">
              {[
                { key: 'space', icon: Video },
                { key: 'share', icon: Link2 },
                { key: 'showcase', icon: Sparkles },
              ].map((tip) => (
                <li key={tip.key} className="flex items-start gap-3 rounded-md border p-3">
                  <tip.icon className="mt-0.5 h-4 w-4 text-primary" aria-hidden="true" />
                  <span>{t(`QUICKSTART.tip_${tip.key}`)}</span>
                </li>
              ))}
            </ul>
            <div className="flex justify-end">
              <Button onClick={onFinish}>
                <PartyPopper aria-hidden="true" />
                {t('QUICKSTART.finish')}
              </Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  )
}
