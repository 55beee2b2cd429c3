import { ApiError } from './api-client'

// Payment happens on the provider's hosted checkout (SPEC §4). The browser only
// follows a checkout link that starts with the origin the pricing call names;
// anything else is treated as a server error (500) and shown in the popup.

/** True when `href` is an absolute http(s) URL on exactly `checkoutOrigin`. */
export function isCheckoutHrefAllowed(href: string, checkoutOrigin: string): boolean {
  let target: URL
  let allowed: URL
  try {
    target = new URL(href)
    allowed = new URL(checkoutOrigin)
  } catch {
    return false
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false
  // checkout_origin must be a bare origin: "https://pay.example/x" is not one.
  if (allowed.origin === 'null' || allowed.pathname !== '/' || allowed.search || allowed.hash) return false
  return target.origin === allowed.origin
}

/** Indirection over window.location so tests can observe the redirect. */
export const browserLocation = {
  assign(url: string): void {
    window.location.assign(url)
  },
}

/**
 * Sends the browser to the checkout, or throws a 500 ApiError (the popup's
 * 'the server encountered an error') when the link is not on the checkout origin.
 */
export function followCheckout(href: string, checkoutOrigin: string): void {
  if (!isCheckoutHrefAllowed(href, checkoutOrigin)) {
    throw new ApiError(500, 'foreign_checkout_origin', 'The checkout link does not come from the payment provider')
  }
  browserLocation.assign(href)
}
