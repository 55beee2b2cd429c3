import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { hasRole } from '@/lib/api/require-role'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi, withRole } from '@/test/mock-api'
import { RoleRequiredPage } from './role-required-page'

describe('hasRole: the billing check', () => {
  it.each(['admin', 'member'] as const)('refuses a %s', async (role) => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, withRole(accountBody(), role)) })
    expect(await hasRole(createQueryClient(), 'a', 'owner')).toBe(false)
  })

  it('lets the owner in', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, withRole(accountBody(), 'owner')) })
    expect(await hasRole(createQueryClient(), 'a', 'owner')).toBe(true)
  })

  it('leaves an unreadable account to the dashboard layout', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(403, { error: { status: 403, code: 'user_not_activated', message: 'x' } }) })
    expect(await hasRole(createQueryClient(), 'a', 'owner')).toBe(true)
  })
})

describe('RoleRequiredPage', () => {
  it('says kindly who may see billing, with a way on', async () => {
    await renderWithProviders(<RoleRequiredPage area="billing" />, '/dashboard/a/billing/invoices')
    expect(await screen.findByRole('heading', { level: 1, name: 'Only the account owner can see billing' })).toBeInTheDocument()
    expect(screen.queryByText('Oops... Something went wrong.')).toBeNull()
  })
})
