import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { valibotResolver } from '@hookform/resolvers/valibot'
import { useTranslation } from 'react-i18next'
import { Check, MailWarning } from 'lucide-react'
import * as v from 'valibot'
import { Brand } from '@/components/brand'
import { FormField } from '@/components/form-field'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { useRequestActivationToken } from '@/lib/api/activation-token'
import { RESEND_SENT_MS } from '@/lib/constants'
import { rememberedEmail } from '@/lib/session'
import { emailSchema } from '@/lib/validators'
import { useSignout } from '@/lib/api/signout'

const schema = v.object({ email: emailSchema })

/**
 * The only thing an unactivated user sees: a blocking dialog asking to confirm
 * the e-mail, with a resend button that shows 'sent' for 3 s (SPEC §4).
 */
export function ActivationRequired({ email }: { email?: string }) {
  const { t } = useTranslation('dashboard-shell')
  const resend = useRequestActivationToken({ silent: true })
  const signout = useSignout()
  const [sent, setSent] = useState(false)
  const form = useForm({
    resolver: valibotResolver(schema),
    defaultValues: { email: email ?? rememberedEmail() },
  })

  useEffect(() => {
    if (!sent) return
    const timer = window.setTimeout(() => setSent(false), RESEND_SENT_MS)
    return () => window.clearTimeout(timer)
  }, [sent])

  const onSubmit = form.handleSubmit((values) =>
    resend.mutate(values.email, { onSuccess: () => setSent(true) }),
  )

  return (
    <div className="min-h-screen bg-muted/40">
      <header className="flex h-12 items-center border-b bg-background px-4">
        <Brand />
      </header>
      <Dialog open>
        <DialogContent
          hideClose
          onEscapeKeyDown={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
        >
          <DialogHeader>
            <MailWarning className="h-8 w-8 text-primary" aria-hidden="true" />
            <DialogTitle>{t('activation.title')}</DialogTitle>
            <DialogDescription>{t('activation.text')}</DialogDescription>
          </DialogHeader>
          <form onSubmit={onSubmit} noValidate className="grid gap-3">
            <FormField id="activation-email" label={t('activation.email')} error={form.formState.errors.email?.message}>
              {(control) => <Input {...control} type="email" autoComplete="email" {...form.register('email')} />}
            </FormField>
            {resend.isError && (
              <p role="alert" className="text-sm text-destructive">
                {t('activation.failed')}
              </p>
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-between">
              <Button
                type="button"
                variant="ghost"
                onClick={() => signout.mutate()}
                loading={signout.isPending}
              >
                {t('user_menu.signout')}
              </Button>
              <Button type="submit" loading={resend.isPending} disabled={sent}>
                {sent ? (
                  <>
                    <Check aria-hidden="true" />
                    {t('activation.sent')}
                  </>
                ) : (
                  t('activation.resend')
                )}
              </Button>
            </div>
            <p className="sr-only" role="status" aria-live="polite">
              {sent ? t('activation.sent') : ''}
            </p>
          </form>
        </DialogContent>
      </Dialog>
    </div>
  )
}
