import { screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { json, mockApi } from '@/test/mock-api'
import { switchLanguage } from '@/test/i18n'
import { SessionsCard } from './sessions-card'

// Issue 37 item 7: a device reads as its browser and system, with its
// network and the time; a passkey sign-in reads "Passkey"; this device is marked.

let restoreLanguage: (() => Promise<void>) | undefined
afterEach(async () => {
  await restoreLanguage?.()
  restoreLanguage = undefined
})

// Local times: the browser's clock is the customer's.
const session = (id: string, extra: Record<string, unknown>) => ({
  id,
  user_agent: 'Mozilla/5.0',
  current: false,
  created_at: '2026-03-01T10:05:00',
  last_seen_at: '2026-03-04T16:40:00',
  expires_at: '2026-03-08T10:00:00',
  browser: '',
  system: '',
  network: '',
  ...extra,
})

const sessions = [
  session('mac', { browser: 'Chrome', system: 'macOS', network: '203.0.113.0/24', current: true, sign_in_method: 'passkey', second_factor: 'passkey' }),
  session('phone', { browser: 'Safari', system: 'iPhone', network: '2001:db8:abcd::/48', sign_in_method: 'password', second_factor: 'totp' }),
  session('bot', { user_agent: 'KudosBot/1.0' }),
]

async function render() {
  mockApi({ 'GET /v1/accounts/a/sessions': () => json(200, { sessions }) })
  await renderWithProviders(<SessionsCard accountId="a" />)
  await screen.findByText('Chrome on macOS')
  return screen.getAllByRole('listitem')
}

describe('SessionsCard: devices named (issue 37)', () => {
  it('names browser and system, the network and the times; a passkey reads once; this device is marked', async () => {
    const [mac, phone, bot] = await render()
    expect(mac).toHaveTextContent('Chrome on macOS')
    expect(within(mac).getByText('This device')).toBeInTheDocument()
    expect(mac).toHaveAttribute('aria-current', 'true')
    expect(mac).toHaveTextContent('Network 203.0.113.0/24')
    expect(mac).toHaveTextContent('Signed in 01/03/26, 10:05, last used 04/03/26, 16:40')
    expect(within(mac).getByText('Passkey')).toBeInTheDocument()
    expect(mac).not.toHaveTextContent('Passkey + Passkey')

    expect(phone).toHaveTextContent('Safari on iPhone')
    expect(phone).toHaveTextContent('Password + authenticator app')
    expect(phone).not.toHaveAttribute('aria-current')
    expect(within(phone).queryByText('This device')).toBeNull()

    // What the parser does not know keeps its raw text.
    expect(bot).toHaveTextContent('KudosBot/1.0')
    expect(bot).not.toHaveTextContent('Network')
  })

  it.each([
    ['nl', 'Chrome op macOS', 'Netwerk 203.0.113.0/24', 'Dit apparaat'],
    ['fr', 'Chrome sur macOS', 'Réseau 203.0.113.0/24', 'Cet appareil'],
  ] as const)('reads in %s', async (language, name, network, current) => {
    restoreLanguage = await switchLanguage(language)
    mockApi({ 'GET /v1/accounts/a/sessions': () => json(200, { sessions }) })
    await renderWithProviders(<SessionsCard accountId="a" />)
    await screen.findByText(name)
    const [mac] = screen.getAllByRole('listitem')
    expect(mac).toHaveTextContent(network)
    expect(within(mac).getByText(current)).toBeInTheDocument()
  })
})
