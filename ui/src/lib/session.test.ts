import { describe, expect, it } from 'vitest'
import {
  ACCOUNT_KEY,
  clearSession,
  EXPIRY_KEY,
  getStoredAccountId,
  getToken,
  hasValidSession,
  isSessionExpired,
  saveSession,
  TOKEN_KEY,
} from './session'

const NOW = Date.parse('2026-03-01T12:00:00Z')

describe('isSessionExpired', () => {
  it('is expired without a stored expiry', () => {
    expect(isSessionExpired(null, NOW)).toBe(true)
    expect(isSessionExpired('', NOW)).toBe(true)
  })
  it('is expired with an unreadable expiry', () => expect(isSessionExpired('soon', NOW)).toBe(true))
  it('is expired when now is past the expiry', () => {
    expect(isSessionExpired('2026-03-01T11:59:59Z', NOW)).toBe(true)
    expect(isSessionExpired('2026-03-01T12:00:00Z', NOW)).toBe(true)
  })
  it('is valid before the expiry (RFC 3339 with offset)', () => {
    expect(isSessionExpired('2026-03-01T13:30:00+01:00', NOW)).toBe(false)
  })
})

describe('stored session', () => {
  it('saves under auth_token / auth_token_expiry and keeps the account id', () => {
    saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc-1' })
    expect(localStorage.getItem(TOKEN_KEY)).toBe('tok')
    expect(localStorage.getItem(EXPIRY_KEY)).toBe('2099-01-01T00:00:00Z')
    expect(localStorage.getItem(ACCOUNT_KEY)).toBe('acc-1')
    expect(hasValidSession()).toBe(true)
    expect(getToken()).toBe('tok')
    expect(getStoredAccountId()).toBe('acc-1')
  })
  it('is invalid when the token is missing or the session expired', () => {
    localStorage.setItem(EXPIRY_KEY, '2099-01-01T00:00:00Z')
    expect(hasValidSession()).toBe(false)
    saveSession({ token: 'tok', token_expiry: '2000-01-01T00:00:00Z', account_id: 'acc-1' })
    expect(hasValidSession()).toBe(false)
  })
  it('clearSession removes token and expiry', () => {
    saveSession({ token: 'tok', token_expiry: '2099-01-01T00:00:00Z', account_id: 'acc-1' })
    clearSession()
    expect(getToken()).toBeNull()
    expect(localStorage.getItem(EXPIRY_KEY)).toBeNull()
    expect(hasValidSession()).toBe(false)
  })
})
