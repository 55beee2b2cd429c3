import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissError, reportError } from '@/lib/error-store'
import { ApiError } from '@/lib/api-client'
import { ErrorPopup } from './error-popup'

describe('ErrorPopup', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => {
    act(() => dismissError())
    vi.useRealTimers()
  })

  it('shows nothing without an error', () => {
    render(<ErrorPopup />)
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it.each([
    [400, 'Bad request.'],
    [401, 'You are unauthorized to access this page.'],
    [422, 'Wrong data submitted.'],
    [444, 'The given passwords do not match.'],
    [500, 'The server encountered an error.'],
  ])('shows the message for %i', (status, message) => {
    render(<ErrorPopup />)
    act(() => reportError(new ApiError(status, 'x', 'x')))
    const popup = screen.getByRole('alert')
    expect(popup).toHaveTextContent('Whoops.. There was an error.')
    expect(popup).toHaveTextContent(message)
    expect(popup).toHaveTextContent('Please try again.')
  })

  it('says the checkout price changed, not that someone else changed something (409 price_changed)', () => {
    render(<ErrorPopup />)
    act(() => reportError(new ApiError(409, 'price_changed', 'the price changed while the checkout was being opened')))
    const popup = screen.getByRole('alert')
    expect(popup).toHaveTextContent('The price changed while the checkout was being prepared')
    expect(popup).not.toHaveTextContent('Someone else changed this')
    expect(popup).toHaveTextContent('Please try again.')
  })

  it('hides after 3.5 s', () => {
    render(<ErrorPopup />)
    act(() => reportError({ status: 422, message: 'Unprocessable entity' }))
    expect(screen.getByRole('alert')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(3499))
    expect(screen.getByRole('alert')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('restarts the 3.5 s for a new error', () => {
    render(<ErrorPopup />)
    act(() => reportError({ status: 400, message: 'a' }))
    act(() => vi.advanceTimersByTime(3000))
    act(() => reportError({ status: 500, message: 'b' }))
    act(() => vi.advanceTimersByTime(3000))
    expect(screen.getByRole('alert')).toHaveTextContent('The server encountered an error.')
    act(() => vi.advanceTimersByTime(500))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
