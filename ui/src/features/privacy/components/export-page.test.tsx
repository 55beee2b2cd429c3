import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { calls, json, mockApi } from '@/test/mock-api'
import { DataExportCard } from './data-export-card'
import { ExportPage, formatSize } from './export-page'
import { formatDateTime } from '@/lib/format'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const exportBody = (status: string, extra: Record<string, unknown> = {}) => ({
  export_id: 'e1',
  status,
  account_id: null,
  created_at: '2026-11-20T10:00:00Z',
  expires_at: status === 'preparing' ? null : '2026-11-27T10:00:00Z',
  size_bytes: 2_400_000,
  ...extra,
})

describe('ExportPage', () => {
  it('polls while the export is prepared, then offers the download with its size and last day', async () => {
    let n = 0
    mockApi({
      'GET /v1/users/me/exports/e1': () =>
        json(200, n++ === 0 ? exportBody('preparing') : exportBody('ready', { download_url: 'http://s3.test/e1.zip?sig=1' })),
    })
    await renderWithProviders(<ExportPage exportId="e1" />)
    expect(await screen.findByText(/Preparing your export/)).toBeInTheDocument()
    const link = await screen.findByRole('link', { name: 'Download' }, { timeout: 5000 })
    expect(link).toHaveAttribute('href', 'http://s3.test/e1.zip?sig=1')
    expect(screen.getByText(/2\.4 MB/)).toHaveTextContent(formatDateTime('2026-11-27T10:00:00Z', 'en'))
  })

  it('says an expired export is gone and prepares a new one of the same data', async () => {
    const fetch = mockApi({
      'GET /v1/users/me/exports/e1': () => json(200, exportBody('expired', { account_id: 'a' })),
      'POST /v1/accounts/a/export': () => json(202, { export_id: 'e2' }),
    })
    await renderWithProviders(<ExportPage exportId="e1" />)
    expect(await screen.findByText(/has expired/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Prepare a new export' }))
    await waitFor(() => expect(calls(fetch)).toContain('POST /v1/accounts/a/export'))
    expect(await screen.findByText(/A new export is being prepared/)).toBeInTheDocument()
  })

  it('tells an unknown export (or another user’s) apart from a failure', async () => {
    mockApi({})
    await renderWithProviders(<ExportPage exportId="nope" />)
    expect(await screen.findByText(/does not exist, or it belongs to someone else/)).toBeInTheDocument()
  })
})

describe('DataExportCard', () => {
  it('asks for the user’s export and opens its page; the account’s only for the owner', async () => {
    const fetch = mockApi({ 'POST /v1/users/me/export': () => json(202, { export_id: 'e9' }) })
    const { router } = await renderWithProviders(<DataExportCard accountId="a" isOwner={false} />)
    expect(screen.queryByRole('button', { name: "Export the account's data" })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Export my data' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/a/exports/e9'))
    expect(calls(fetch)).toEqual(['POST /v1/users/me/export'])
  })

  it('shows the limit when too many exports were asked for', async () => {
    mockApi({
      'POST /v1/users/me/export': () => json(429, { error: { status: 429, code: 'rate_limited', message: 'Too many requests' } }),
    })
    await renderWithProviders(<DataExportCard accountId="a" isOwner />)
    expect(screen.getByRole('button', { name: "Export the account's data" })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Export my data' }))
    expect(await screen.findByRole('alert')).toBeInTheDocument()
  })
})

describe('formatSize', () => {
  it('writes sizes in the reader’s locale', () => {
    expect(formatSize(512, 'en')).toBe('512 B')
    expect(formatSize(2_400_000, 'nl')).toBe('2,4 MB')
  })
})
