import { useEffect, useState, type ReactNode } from 'react'
import { useQuery, useSuspenseQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Download } from 'lucide-react'
import { useDeletionLock } from '@/components/deletion-lock'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { accountQueryOptions } from '@/lib/api/get-account'
import { forgetPlanCheckout, useCheckoutEnded, type CheckoutOutcome } from '@/lib/checkout-return'
import { formatDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useDownloadInvoice } from '../api/download-invoice'
import { billingQueryOptions, type Billing, type Invoice, type InvoiceStatus } from '../api/get-billing'
import { usePayInvoice } from '../api/pay-invoice'
import { formatInvoiceAmount, invoiceDescriptionText } from './billing-format'
import { LoadFailed } from '@/components/load-failed'
import { useBusyUntilLeave } from './use-busy-until-leave'

const COLUMNS = ['number', 'date', 'description', 'amount', 'status'] as const
const SKELETON_ROWS = 3

const STATUS_STYLE: Record<InvoiceStatus, string> = {
  PAID: 'border-emerald-600/30 bg-emerald-600/10 text-emerald-700',
  PROCESSING: 'border-amber-500/30 bg-amber-500/10 text-amber-700',
  DUE_PAYMENT: 'border-destructive/30 bg-destructive/10 text-destructive',
  CREDITED: 'border-sky-600/30 bg-sky-600/10 text-sky-700',
}

/** The card around the invoices: title, subtitle and its content. */
function InvoicesCard({ children }: { children: ReactNode }) {
  const { t } = useTranslation('billing')
  return (
    <Card className="min-w-0">
      <CardHeader>
        <CardTitle>{t('invoices.title')}</CardTitle>
        <CardDescription>{t('invoices.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  )
}

/** While the route loader fetches GET billing: skeleton rows. */
export function InvoicesTabPending() {
  const { t } = useTranslation('billing')
  return (
    <InvoicesCard>
      <div className="grid gap-3" aria-busy="true" aria-label={t('invoices.title')} role="group">
        {Array.from({ length: SKELETON_ROWS }, (_, row) => (
          <div key={row} className="flex items-center gap-4" data-testid="invoice-skeleton">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-4 flex-1" />
            <Skeleton className="h-4 w-16" />
          </div>
        ))}
      </div>
    </InvoicesCard>
  )
}

/** GET billing failed: say so, with a retry. */
export function InvoicesTabFailed({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('billing')
  return (
    <InvoicesCard>
      <LoadFailed message={t('invoices.failed')} retrying={retrying} onRetry={onRetry} />
    </InvoicesCard>
  )
}

// Below sm each row is a stacked block (number and amount, then date and
// description, then status and action), so nothing is cut off on a phone;
// from sm on it is a table row. The header stays for screen readers.
const ROW = 'max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:gap-x-3 max-sm:gap-y-1 max-sm:py-3'
const CELL = 'max-sm:p-0'

/** How often, and for how long, the invoices are re-read after a payment (SPEC §9's 2.5 s poll). */
const PAID_POLL_MS = 2500
const PAID_POLL_LIMIT_MS = 2 * 60 * 1000

/**
 * Back here from an invoice's checkout (one owed after its debit came back
 * returns to the invoices, not to the plan): a payment made is applied when
 * the provider tells us, so the invoices are re-read every 2.5 s while one is
 * still due, for two minutes at most; a payment left or declined ends the
 * open checkout (useCheckoutEnded). Returns the re-read interval for the
 * billing query and the note to show (undefined: none).
 */
function useInvoiceCheckoutReturn(accountId: string, checkout: CheckoutOutcome) {
  useCheckoutEnded(accountId, checkout)
  const [arrivedAt] = useState(() => Date.now())
  useEffect(() => {
    // No plan was bought: the plan page has nothing to welcome.
    if (checkout) forgetPlanCheckout(accountId)
  }, [checkout, accountId])
  const refetchInterval = (data: Billing | undefined) =>
    checkout === 'success' &&
    Date.now() - arrivedAt < PAID_POLL_LIMIT_MS &&
    (data?.invoices ?? []).some((invoice) => invoice.status === 'DUE_PAYMENT')
      ? PAID_POLL_MS
      : false
  return { refetchInterval, note: checkout ? (`invoices.checkout_${checkout}` as const) : undefined }
}

/**
 * Invoices (SPEC §2, §4): number, date, description, amount, status and a
 * download (PAID, PROCESSING) or pay (DUE_PAYMENT, no number shown) button.
 * Credit notes (issue 30) are listed among them: negative amount, status
 * Credited, the invoice they correct, downloadable like an invoice.
 * The route loader has fetched GET billing (pending and failed states above).
 */
export function InvoicesTab({ accountId, checkout }: { accountId: string; checkout?: CheckoutOutcome }) {
  const { t, i18n } = useTranslation('billing')
  const back = useInvoiceCheckoutReturn(accountId, checkout)
  const billing = useSuspenseQuery({
    ...billingQueryOptions(accountId),
    refetchInterval: (query) => back.refetchInterval(query.state.data),
  })
  const download = useDownloadInvoice(accountId)
  const pay = usePayInvoice(accountId)
  // During the account's scheduled deletion nothing is paid (issue 37): Pay is disabled, the reason above.
  const account = useQuery(accountQueryOptions(accountId))
  const deletion = useDeletionLock(account.data?.account.deletion_at, 'invoice')
  // The invoice whose payment runs; it stays busy while the browser leaves.
  const [paying, setPaying] = useBusyUntilLeave<string>()
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const invoices = billing.data.invoices
  const country = billing.data.account_billing_address?.country ?? undefined

  const numbers = new Map(invoices.map((invoice) => [invoice.id, invoice.invoice_url ?? '']))

  /** A credit note names the invoice it corrects; an invoice what it bills. */
  const description = (invoice: Invoice) => {
    const corrected = invoice.kind === 'credit_note' && invoice.corrects ? numbers.get(invoice.corrects) : ''
    if (corrected) return t('invoices.credit_note_for', { number: corrected })
    return invoiceDescriptionText(invoice.description ?? '', t)
  }

  const payInvoice = (invoice: Invoice) => {
    setPaying(invoice.id)
    pay.mutate(invoice.id, { onError: () => setPaying(null) })
  }

  const action = (invoice: Invoice) => {
    if (invoice.status === 'DUE_PAYMENT') {
      return (
        <Button
          size="sm"
          loading={paying === invoice.id}
          disabled={paying !== null || deletion.locked}
          aria-describedby={deletion.describedBy}
          onClick={() => payInvoice(invoice)}
        >
          {t('invoices.pay')}
        </Button>
      )
    }
    const number = invoice.invoice_url ?? ''
    const busy = download.isPending && download.variables?.id === invoice.id
    const label =
      invoice.kind === 'credit_note'
        ? t('invoices.download_credit_note', { number })
        : number
          ? t('invoices.download', { number })
          : t('invoices.download_unnumbered')
    return (
      <Button
        variant="ghost"
        size="icon"
        loading={busy}
        aria-label={label}
        onClick={() => download.mutate({ id: invoice.id, number })}
      >
        {!busy && <Download aria-hidden="true" />}
      </Button>
    )
  }

  return (
    <InvoicesCard>
      {back.note && (
        <p role="status" className="mb-4 rounded-xl border bg-muted/50 p-4 text-sm">
          {t(back.note)}
        </p>
      )}
      {invoices.some((invoice) => invoice.status === 'DUE_PAYMENT') && deletion.notice && <div className="mb-4">{deletion.notice}</div>}
      <Table aria-label={t('invoices.title')} className="max-sm:block">
        <TableHeader className="max-sm:sr-only">
          <TableRow>
            {COLUMNS.map((column) => (
              <TableHead key={column} align={column === 'amount' ? 'end' : 'start'}>
                {t(`invoices.columns.${column}`)}
              </TableHead>
            ))}
            <TableHead align="end">
              <span className="sr-only">{t('invoices.columns.actions')}</span>
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody className="max-sm:block">
          {invoices.length === 0 && (
            <TableRow className="max-sm:block">
              <TableCell colSpan={COLUMNS.length + 1} className="py-8 text-center text-muted-foreground max-sm:block">
                {t('invoices.empty')}
              </TableCell>
            </TableRow>
          )}
          {invoices.map((invoice) => {
            const number = invoice.status === 'DUE_PAYMENT' ? '' : (invoice.invoice_url ?? '')
            return (
              <TableRow key={invoice.id} data-status={invoice.status} className={ROW}>
                <TableCell className={cn(CELL, 'font-medium whitespace-nowrap tabular-nums max-sm:truncate')}>
                  {number || '-'}
                </TableCell>
                <TableCell className={cn(CELL, 'tabular-nums max-sm:col-start-1 max-sm:row-start-2 max-sm:text-muted-foreground')}>
                  {formatDate(invoice.created_at)}
                </TableCell>
                <TableCell className={cn(CELL, 'max-sm:col-span-2 max-sm:row-start-3 max-sm:text-muted-foreground')}>
                  {description(invoice)}
                </TableCell>
                <TableCell className={cn(CELL, 'text-right whitespace-nowrap tabular-nums max-sm:col-start-2 max-sm:row-start-1 max-sm:font-medium')}>
                  {formatInvoiceAmount(invoice.amount, invoice.currency ?? '', language, country)}
                </TableCell>
                <TableCell className={cn(CELL, 'max-sm:row-start-4')}>
                  <span
                    className={cn(
                      'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
                      STATUS_STYLE[invoice.status],
                    )}
                  >
                    {t(`invoices.status.${invoice.status}`)}
                  </span>
                </TableCell>
                <TableCell className={cn(CELL, 'text-right max-sm:col-start-2 max-sm:row-span-2 max-sm:row-start-2 max-sm:self-center')}>
                  {action(invoice)}
                </TableCell>
              </TableRow>
            )
          })}
        </TableBody>
      </Table>
    </InvoicesCard>
  )
}
