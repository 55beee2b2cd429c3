import { useNavigate } from '@tanstack/react-router'
import { useTranslation } from 'react-i18next'
import { KeyRound } from 'lucide-react'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { isApiError } from '@/lib/api-client'
import { passkeyErrorKey, passkeysSupported } from '@/lib/webauthn'
import { usePasskeySignin } from '../api/passkey-signin'
import { safeRedirect, signedInHome } from '../api/session-schema'

/**
 * "Sign in with a passkey" (no e-mail, no password): the browser offers the
 * passkeys it keeps for this site. Hidden where the browser has no WebAuthn.
 * A refused or cancelled passkey is said in an alert under the button.
 */
export function PasskeySigninButton({ redirect }: { redirect?: string }) {
  const { t } = useTranslation('passkeys')
  const navigate = useNavigate()
  const signin = usePasskeySignin()
  if (!passkeysSupported()) return null

  const onClick = async () => {
    try {
      const session = await signin.mutateAsync()
      const back = safeRedirect(redirect)
      if (back) await navigate({ href: back })
      else await navigate(signedInHome(session.account_id))
    } catch {
      // Said below the button.
    }
  }
  const error = signin.error
  const key = passkeyErrorKey(error) ?? (isApiError(error) && error.status === 401 ? 'passkeys:errors.refused' : undefined)

  return (
    <div className="grid gap-2">
      <Button type="button" variant="outline" className="w-full" loading={signin.isPending} onClick={() => void onClick()}>
        {signin.isPending ? null : <KeyRound aria-hidden="true" />}
        {t('signin.button')}
      </Button>
      {error ? <FormError error={error} messageKey={key} /> : null}
    </div>
  )
}
