import * as v from 'valibot'
import { useMutation } from '@tanstack/react-query'
import { ApiError, apiRequest } from '@/lib/api-client'

// POST /v1/accounts/{id}/invoices/{invoiceId}/download → 200 {presigned_url}
// (valid for minutes). The file is fetched from there and saved as
// "{invoice number}.pdf"; a failed fetch is a 500 (SPEC §8).

const downloadSchema = v.object({ presigned_url: v.pipe(v.string(), v.nonEmpty()) })

export interface InvoiceToDownload {
  id: string
  /** The invoice number (empty while PROCESSING: the id names the file then). */
  number: string
}

export function invoiceFileName(invoice: InvoiceToDownload): string {
  return `${invoice.number || invoice.id}.pdf`
}

/** Indirection over the object-URL download so tests can observe the saved file. */
export const fileSaver = {
  save(blob: Blob, fileName: string): void {
    const url = URL.createObjectURL(blob)
    const link = document.createElement('a')
    link.href = url
    link.download = fileName
    link.rel = 'noopener'
    document.body.appendChild(link)
    link.click()
    link.remove()
    // Give the browser a moment to start the download before the URL goes.
    window.setTimeout(() => URL.revokeObjectURL(url), 1000)
  },
}

async function fetchFile(url: string): Promise<Blob> {
  let response: Response
  try {
    response = await fetch(url)
  } catch {
    throw new ApiError(500, 'invoice_fetch_failed', 'The invoice file could not be fetched')
  }
  if (!response.ok) throw new ApiError(500, 'invoice_fetch_failed', 'The invoice file could not be fetched')
  return response.blob()
}

export async function downloadInvoice(accountId: string, invoice: InvoiceToDownload): Promise<void> {
  const { presigned_url } = await apiRequest(
    `/v1/accounts/${encodeURIComponent(accountId)}/invoices/${encodeURIComponent(invoice.id)}/download`,
    { method: 'POST', auth: true, schema: downloadSchema },
  )
  fileSaver.save(await fetchFile(presigned_url), invoiceFileName(invoice))
}

export function useDownloadInvoice(accountId: string) {
  return useMutation({ mutationFn: (invoice: InvoiceToDownload) => downloadInvoice(accountId, invoice) })
}
