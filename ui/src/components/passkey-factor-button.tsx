import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { KeyRound } from 'lucide-react'
import { FormError } from '@/components/form-error'
import { Button } from '@/components/ui/button'
import { isApiError } from '@/lib/api-client'
import { usePasskeyAssertion } from '@/lib/passkey-assertion'
import { passkeyErrorKey, passkeysSupported, type PasskeyAnswer, type PasskeyOptions } from '@/lib/webauthn'

/**
 * "Use a passkey" as the second factor (issue 29): the sign-in challenge,
 * the step-up dialog and the account policy's screen. It fetches the
 * ceremony's options (`options`), lets the browser ask for one of the
 * user's passkeys and hands the answer to `onAnswer`, which posts it as
 * webauthn. A cancelled ceremony or options refused are said under the
 * button; hidden where the browser has no WebAuthn.
 */
export function PasskeyFactorButton({
  options,
  onAnswer,
  pending = false,
}: {
  options: () => Promise<PasskeyOptions>
  onAnswer: (answer: PasskeyAnswer) => void
  pending?: boolean
}) {
  const { t } = useTranslation('passkeys')
  const assertion = usePasskeyAssertion()
  const [error, setError] = useState<unknown>(null)
  const [fetching, setFetching] = useState(false)
  if (!passkeysSupported()) return null

  const run = async () => {
    setError(null)
    setFetching(true)
    try {
      const answer = await assertion.mutateAsync(await options())
      onAnswer(answer)
    } catch (e) {
      setError(e)
    } finally {
      setFetching(false)
    }
  }
  const key = passkeyErrorKey(error) ?? (isApiError(error) && error.status === 401 ? 'passkeys:errors.refused' : undefined)

  return (
    <div className="grid gap-2">
      <Button type="button" variant="outline" loading={fetching || pending} onClick={() => void run()}>
        {fetching || pending ? null : <KeyRound aria-hidden="true" />}
        {t('factor.button')}
      </Button>
      {error ? <FormError error={error} messageKey={key} /> : null}
    </div>
  )
}
