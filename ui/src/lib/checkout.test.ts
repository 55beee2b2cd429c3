import { describe, expect, it, vi } from 'vitest'
import { browserLocation, followCheckout, isCheckoutHrefAllowed } from './checkout'

const origin = 'http://127.0.0.1:8080'

describe('isCheckoutHrefAllowed', () => {
  it.each([
    ['http://127.0.0.1:8080/sandbox/checkout/abc', origin, true],
    ['http://127.0.0.1:8080/sandbox/checkout/abc?x=1#y', `${origin}/`, true],
    ['https://pay.example.com/c/1', 'https://pay.example.com', true],
    ['https://pay.example.com:443/c/1', 'https://pay.example.com', true],
    ['https://pay.example.com.evil.io/c/1', 'https://pay.example.com', false],
    ['https://evil.io/?next=https://pay.example.com', 'https://pay.example.com', false],
    ['http://pay.example.com/c/1', 'https://pay.example.com', false],
    ['https://pay.example.com:8443/c/1', 'https://pay.example.com', false],
    ['http://localhost:8080/sandbox', origin, false],
    ['/sandbox/checkout/abc', origin, false],
    ['//evil.io/x', origin, false],
    ['javascript:alert(1)', origin, false],
    ['data:text/html,hi', origin, false],
    ['', origin, false],
    ['http://127.0.0.1:8080/x', '', false],
    ['http://127.0.0.1:8080/x', 'http://127.0.0.1:8080/path', false],
    ['http://127.0.0.1:8080/x', 'not a url', false],
  ])('%j on %j → %s', (href, allowed, expected) => {
    expect(isCheckoutHrefAllowed(href, allowed)).toBe(expected)
  })
})

describe('followCheckout', () => {
  it('assigns the location for a link on the checkout origin', () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    followCheckout(`${origin}/sandbox/checkout/1`, origin)
    expect(assign).toHaveBeenCalledWith(`${origin}/sandbox/checkout/1`)
  })
  it('throws a 500 ApiError and stays for a foreign link', () => {
    const assign = vi.spyOn(browserLocation, 'assign').mockImplementation(() => {})
    expect(() => followCheckout('https://evil.io/pay', origin)).toThrow(expect.objectContaining({ status: 500 }))
    expect(assign).not.toHaveBeenCalled()
  })
})
