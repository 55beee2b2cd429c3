import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createQueryClient } from '@/lib/query-client'
import { requireRole } from '@/lib/api/require-role'
import { RoleRequiredError } from '@/lib/roles'
import { renderWithProviders } from '@/test/render'
import { accountBody, json, mockApi, withRole } from '@/test/mock-api'
import { RoleAwareErrorPage } from './role-required-page'

describe('requireRole: the billing guard', () => {
  it.each(['admin', 'member'] as const)('refuses a %s with RoleRequiredError', async (role) => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, withRole(accountBody(), role)) })
    await expect(requireRole(createQueryClient(), 'a', 'billing', 'owner')).rejects.toBeInstanceOf(RoleRequiredError)
  })

  it('lets the owner in', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, withRole(accountBody(), 'owner')) })
    await expect(requireRole(createQueryClient(), 'a', 'billing', 'owner')).resolves.toBeUndefined()
  })

  it('leaves an unreadable account to the dashboard layout (no role error)', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(403, { error: { status: 403, code: 'user_not_activated', message: 'x' } }) })
    await expect(requireRole(createQueryClient(), 'a', 'billing', 'owner')).resolves.toBeUndefined()
  })
})

describe('RoleAwareErrorPage', () => {
  it('a role refusal is a friendly page, not an error', async () => {
    await renderWithProviders(<RoleAwareErrorPage error={new RoleRequiredError('billing')} reset={() => {}} />)
    expect(await screen.findByRole('heading', { level: 1, name: 'Only the account owner can see billing' })).toBeInTheDocument()
    expect(screen.queryByText('Oops... Something went wrong.')).toBeNull()
  })

  it('anything else is the error page', async () => {
    await renderWithProviders(<RoleAwareErrorPage error={new Error('boom')} reset={() => {}} />)
    expect(await screen.findByText('Oops... Something went wrong.')).toBeInTheDocument()
  })
})
