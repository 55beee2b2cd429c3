import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Download } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { formatDate } from '@/lib/format'
import { cn } from '@/lib/utils'
import { useDownloadInvoice } from '../api/download-invoice'
import { billingQueryOptions, type Invoice, type InvoiceStatus } from '../api/get-billing'
import { usePayInvoice } from '../api/pay-invoice'
import { formatInvoiceAmount, invoiceDescriptionText } from './billing-format'
import { LoadFailed } from './load-failed'
import { useBusyUntilLeave } from './use-busy-until-leave'

const COLUMNS = ['number', 'date', 'description', 'amount', 'status'] as const
const SKELETON_ROWS = 3

const STATUS_STYLE: Record<InvoiceStatus, string> = {
  PAID: 'border-emerald-600/30 bg-emerald-600/10 text-emerald-700',
  PROCESSING: 'border-amber-500/30 bg-amber-500/10 text-amber-700',
  DUE_PAYMENT: 'border-destructive/30 bg-destructive/10 text-destructive',
}

/**
 * Invoices (SPEC §2, §4): number, date, description, amount, status and a
 * download (PAID, PROCESSING) or pay (DUE_PAYMENT, no number shown) button.
 */
export function InvoicesTab({ accountId }: { accountId: string }) {
  const { t, i18n } = useTranslation('billing')
  const billing = useQuery(billingQueryOptions(accountId))
  const download = useDownloadInvoice(accountId)
  const pay = usePayInvoice(accountId)
  // The invoice whose payment runs; it stays busy while the browser leaves.
  const [paying, setPaying] = useBusyUntilLeave<string>()
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  const invoices = billing.data?.invoices ?? []

  const payInvoice = (invoice: Invoice) => {
    setPaying(invoice.id)
    pay.mutate(invoice.id, { onError: () => setPaying(null) })
  }

  const action = (invoice: Invoice) => {
    if (invoice.status === 'DUE_PAYMENT') {
      return (
        <Button size="sm" loading={paying === invoice.id} disabled={paying !== null} onClick={() => payInvoice(invoice)}>
          {t('invoices.pay')}
        </Button>
      )
    }
    const number = invoice.invoice_url ?? ''
    const busy = download.isPending && download.variables?.id === invoice.id
    return (
      <Button
        variant="ghost"
        size="icon"
        loading={busy}
        aria-label={number ? t('invoices.download', { number }) : t('invoices.download_unnumbered')}
        onClick={() => download.mutate({ id: invoice.id, number })}
      >
        {!busy && <Download aria-hidden="true" />}
      </Button>
    )
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('invoices.title')}</CardTitle>
        <CardDescription>{t('invoices.subtitle')}</CardDescription>
      </CardHeader>
      <CardContent>
        {billing.isError ? (
          <LoadFailed message={t('invoices.failed')} retrying={billing.isFetching} onRetry={() => void billing.refetch()} />
        ) : (
          <Table aria-label={t('invoices.title')} aria-busy={billing.isPending || undefined}>
            <TableHeader>
              <TableRow>
                {COLUMNS.map((column) => (
                  <TableHead key={column} className={column === 'amount' ? 'text-right' : undefined}>
                    {t(`invoices.columns.${column}`)}
                  </TableHead>
                ))}
                <TableHead className="text-right">
                  <span className="sr-only">{t('invoices.columns.actions')}</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {billing.isPending &&
                Array.from({ length: SKELETON_ROWS }, (_, row) => (
                  <TableRow key={row} data-testid="invoice-skeleton">
                    {[...COLUMNS, 'actions'].map((column) => (
                      <TableCell key={column}>
                        <Skeleton className="h-4 w-full max-w-32" />
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              {billing.isSuccess && invoices.length === 0 && (
                <TableRow>
                  <TableCell colSpan={COLUMNS.length + 1} className="py-8 text-center text-muted-foreground">
                    {t('invoices.empty')}
                  </TableCell>
                </TableRow>
              )}
              {invoices.map((invoice) => {
                const number = invoice.status === 'DUE_PAYMENT' ? '' : (invoice.invoice_url ?? '')
                return (
                  <TableRow key={invoice.id} data-status={invoice.status}>
                    <TableCell className="font-medium tabular-nums">
                      {number || '-'}
                    </TableCell>
                    <TableCell className="tabular-nums">{formatDate(invoice.created_at)}</TableCell>
                    <TableCell>{invoiceDescriptionText(invoice.description ?? '', t)}</TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatInvoiceAmount(invoice.amount, invoice.currency ?? '', language)}
                    </TableCell>
                    <TableCell>
                      <span
                        className={cn(
                          'inline-flex rounded-full border px-2 py-0.5 text-xs font-medium',
                          STATUS_STYLE[invoice.status],
                        )}
                      >
                        {t(`invoices.status.${invoice.status}`)}
                      </span>
                    </TableCell>
                    <TableCell className="text-right">{action(invoice)}</TableCell>
                  </TableRow>
                )
              })}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  )
}
