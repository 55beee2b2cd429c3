import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import i18n from 'i18next'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { SigninPage } from './signin-page'

afterEach(() => {
  vi.restoreAllMocks()
})

const askedForShell = (calls: unknown[][]) =>
  calls.some(([ns]) => ns === 'dashboard-shell' || (Array.isArray(ns) && ns.includes('dashboard-shell')))

describe('SigninPage', () => {
  // Issue 37 item 9: the dashboard's code and texts are fetched on the
  // user's first sign of intent, not on a timer during the page's own start
  // (that work was part of the total blocking time Lighthouse measured).
  it('fetches the dashboard only once the user reaches for the form', async () => {
    const loadNamespaces = vi.spyOn(i18n, 'loadNamespaces')
    await renderWithProviders(<SigninPage />, '/signin')
    const email = await screen.findByLabelText('E-mail')
    await new Promise((resolve) => setTimeout(resolve, 600))
    expect(askedForShell(loadNamespaces.mock.calls)).toBe(false)
    await userEvent.click(email)
    expect(askedForShell(loadNamespaces.mock.calls)).toBe(true)
  })
})
