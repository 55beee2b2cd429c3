import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { CodeInput } from '@/components/factor-form'
import { Label } from '@/components/ui/label'
import { isApiError } from '@/lib/api-client'
import { useFocusOnMount } from '@/lib/use-focus-on-mount'
import { useConfirmTotp, type TotpEnrolment } from '../api/mfa'

/** The QR code of an otpauth:// URL, drawn by the qrcode package (its own chunk). */
function QrCode({ url, alt }: { url: string; alt: string }) {
  const [src, setSrc] = useState<string | null>(null)
  useEffect(() => {
    let live = true
    void import('qrcode').then((qr) => qr.toDataURL(url, { margin: 1, width: 192 })).then((data) => {
      if (live) setSrc(data)
    })
    return () => {
      live = false
    }
  }, [url])
  return src ? <img src={src} alt={alt} width={192} height={192} className="rounded border" /> : null
}

/**
 * Enrolling an authenticator app: its QR code and the key in text, then the
 * first code, which turns two-factor authentication on; onConfirmed gets the
 * recovery codes.
 */
export function TotpEnrolment({
  enrolment,
  onConfirmed,
  onCancel,
}: {
  enrolment: TotpEnrolment
  onConfirmed: (codes: string[]) => void
  onCancel: () => void
}) {
  const { t } = useTranslation('mfa')
  const confirm = useConfirmTotp()
  const [code, setCode] = useState('')
  const wrong = isApiError(confirm.error) && confirm.error.status === 422
  // "Set up" was pressed: focus goes on from this step's heading.
  const heading = useFocusOnMount<HTMLHeadingElement>()
  return (
    <form
      className="grid gap-3"
      aria-labelledby="totp-enrolment-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (code.trim()) confirm.mutate(code.replace(/\s/g, ''), { onSuccess: (codes) => onConfirmed(codes ?? []) })
      }}
    >
      <h3 id="totp-enrolment-title" ref={heading} tabIndex={-1} className="font-medium outline-none">
        {t('card.enrol_title')}
      </h3>
      <p className="text-sm">{t('card.scan')}</p>
      <QrCode url={enrolment.otpauth_url} alt={t('card.qr_alt')} />
      <div className="grid gap-1">
        <span className="text-sm font-medium" id="totp-secret-label">
          {t('card.secret')}
        </span>
        <code aria-labelledby="totp-secret-label" data-testid="totp-secret" className="font-mono text-sm break-all">
          {enrolment.secret}
        </code>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="totp-confirm-code">{t('card.code')}</Label>
        <CodeInput
          id="totp-confirm-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          aria-invalid={wrong ? true : undefined}
          aria-describedby="totp-confirm-error"
        />
        <div id="totp-confirm-error" aria-live="assertive" className="text-sm text-destructive">
          {confirm.isError ? <p role="alert">{t('step_up.wrong')}</p> : null}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={confirm.isPending}>
          {t('card.confirm')}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('card.cancel')}
        </Button>
      </div>
    </form>
  )
}
