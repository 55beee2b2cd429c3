import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { SignupForm } from './signup-form'

afterEach(() => vi.unstubAllGlobals())

describe('SignupForm', () => {
  it('shows the SPEC §5 messages when submitted empty', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(<SignupForm />, '/signup')
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }))

    expect(await screen.findAllByText('*field required')).toHaveLength(2)
    expect(screen.getByText('*email is required')).toBeInTheDocument()
    expect(screen.getByText('*password is required')).toBeInTheDocument()
    expect(screen.getByText('*please accept Terms of Use to continue')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()

    const email = screen.getByLabelText('E-mail')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(email).toHaveAccessibleDescription('*email is required')
  })

  it('shows the invalid e-mail and password rule messages', async () => {
    vi.stubGlobal('fetch', vi.fn())
    await renderWithProviders(<SignupForm />, '/signup')
    await userEvent.type(screen.getByLabelText('E-mail'), 'nope')
    await userEvent.type(screen.getByLabelText('Password'), 'short')
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }))
    expect(await screen.findByText('*please provide a valid email')).toBeInTheDocument()
    expect(screen.getByText('*password must be at least 8 characters')).toBeInTheDocument()
  })

  it('Google sign-up needs the terms first', async () => {
    const fetch = vi.fn()
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(<SignupForm />, '/signup')
    await userEvent.click(screen.getByRole('button', { name: 'Continue with Google' }))
    expect(await screen.findByText('*please accept Terms of Use to continue')).toBeInTheDocument()
    expect(fetch).not.toHaveBeenCalled()
  })

  it('posts the payload and maps server field errors onto the fields', async () => {
    const fetch = vi.fn(async () =>
      new Response(
        JSON.stringify({ error: { status: 422, code: 'unprocessable_entity', message: 'Unprocessable entity', fields: { email: 'invalid_email' } } }),
        { status: 422 },
      ),
    )
    vi.stubGlobal('fetch', fetch)
    await renderWithProviders(<SignupForm />, '/signup')
    await userEvent.type(screen.getByLabelText('First name'), 'Jane')
    await userEvent.type(screen.getByLabelText('Last name'), 'Doe')
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane@example.com')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByLabelText('I accept the Terms of Use'))
    await userEvent.click(screen.getByRole('button', { name: 'Sign up' }))

    await waitFor(() => expect(fetch).toHaveBeenCalledOnce())
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/v1/auth/signup')
    expect(JSON.parse(String(init.body))).toEqual({
      firstname: 'Jane',
      lastname: 'Doe',
      email: 'jane@example.com',
      password: 'Secret12!',
      opt_in_terms_of_use: true,
      opt_in_marketing: false,
      preferred_language: 'en',
      root_domain: window.location.origin,
      // The key this browser keeps: the activation link signs in only here.
      browser_key: localStorage.getItem('signup_browser_key'),
    })
    expect(localStorage.getItem('signup_browser_key')).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(await screen.findByText('*please provide a valid email')).toBeInTheDocument()
    expect(screen.getByText('Wrong data submitted.')).toBeInTheDocument()
  })
})
