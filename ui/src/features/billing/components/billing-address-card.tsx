import { useEffect, useRef, useState } from 'react'
import { useQueryClient, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { RefreshCw } from 'lucide-react'
import { BillingAddressForm, type BillingAddressValues } from '@/components/billing-address-form'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { billingQueryOptions, type LoadedBillingAddress } from '../api/get-billing'
import { useSaveBillingAddress } from '@/lib/api/update-billing-address'
import { queryKeys } from '@/lib/query-keys'
import { VatIdStatus } from './vat-id-status'

/** While a VAT id is being checked (pending), the billing read is asked again this often. */
export const VAT_CHECK_POLL_MS = 15_000

function formValues(address: LoadedBillingAddress): BillingAddressValues {
  return {
    organization_name: address.organization_name ?? '',
    street_and_number: address.street_and_number ?? '',
    street_additional: address.street_additional ?? '',
    postal_code: address.postal_code ?? '',
    city: address.city ?? '',
    region: address.region ?? '',
    country: address.country ?? '',
    vat_id: address.vat_id ?? '',
  }
}

/**
 * The billing address (SPEC §2, §5) with the version it was loaded at: a save
 * in between (409) offers to reload; invalid_vat_id lands under the VAT field.
 * The saved VAT id's check shows above the form; while it is pending the
 * billing read is polled, so that Checking… turns into its answer.
 */
export function BillingAddressCard({ accountId, organizationName }: { accountId: string; organizationName: string }) {
  const { t } = useTranslation('billing')
  const billing = useSuspenseQuery({
    ...billingQueryOptions(accountId),
    refetchInterval: (query) =>
      query.state.data?.account_billing_address?.vat_id_status === 'pending' ? VAT_CHECK_POLL_MS : false,
  })
  const save = useSaveBillingAddress(accountId)
  const [outcome, setOutcome] = useState<'saved' | 'conflict' | null>(null)
  // Bumped by a reload so the form takes the server's values again.
  const [generation, setGeneration] = useState(0)
  const [reloading, setReloading] = useState(false)
  const address = billing.data.account_billing_address
  // A pending check answered while polled changes the VAT of the prices
  // (reverse charge): the plans page must not keep the old rate.
  const queryClient = useQueryClient()
  const status = address?.vat_id_status
  const lastStatus = useRef(status)
  useEffect(() => {
    if (lastStatus.current === 'pending' && status !== 'pending') {
      void queryClient.invalidateQueries({ queryKey: queryKeys.pricing(accountId) })
    }
    lastStatus.current = status
  }, [status, accountId, queryClient])

  const submit = async (values: BillingAddressValues) => {
    setOutcome(null)
    setOutcome(await save.mutateAsync({ ...values, version: address?.version }))
  }

  const reload = async () => {
    setReloading(true)
    await billing.refetch()
    save.reset()
    setOutcome(null)
    setGeneration((g) => g + 1)
    setReloading(false)
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('payment_details.address.title')}</CardTitle>
        <CardDescription>{t('payment_details.address.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        {outcome === 'conflict' && (
          <div
            role="alert"
            className="grid gap-2 rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive"
          >
            <p>{t('payment_details.address.conflict')}</p>
            <Button variant="outline" size="sm" className="w-fit" loading={reloading} onClick={() => void reload()}>
              {!reloading && <RefreshCw aria-hidden="true" />}
              {t('payment_details.address.reload')}
            </Button>
          </div>
        )}
        {address && <VatIdStatus status={address.vat_id_status} vatId={address.vat_id ?? ""} />}
        <BillingAddressForm
          key={`${address?.version ?? 'new'}-${generation}`}
          idPrefix="billing-address"
          defaultValues={address ? formValues(address) : { organization_name: organizationName }}
          onSubmit={submit}
          submitLabel={t('payment_details.address.save')}
          pending={save.isPending}
          error={save.error}
          status={outcome === 'saved' ? t('payment_details.address.saved') : null}
        />
      </CardContent>
    </Card>
  )
}
