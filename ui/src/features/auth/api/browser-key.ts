// Activation CSRF (issue 27): a sign-up sends a random key that this browser
// keeps in localStorage (shared by its tabs, so the activation link opened
// from the mail in a new tab finds it). Opening the activation link confirms
// the address anywhere, but the API starts a session only for a browser that
// sends the same key again: a link forwarded to, or opened by, someone else
// signs no one in there.

const KEY = 'signup_browser_key'

function newKey(): string {
  const bytes = new Uint8Array(32)
  crypto.getRandomValues(bytes)
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** The key a sign-up sends: this browser's, made on first use. */
export function signupBrowserKey(): string {
  let key = localStorage.getItem(KEY)
  if (!key) {
    key = newKey()
    localStorage.setItem(KEY, key)
  }
  return key
}

/** The key an activation sends: this browser's, if it ever signed up. */
export function storedBrowserKey(): string | undefined {
  return localStorage.getItem(KEY) ?? undefined
}
