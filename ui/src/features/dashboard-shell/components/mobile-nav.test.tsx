import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { MobileNavBody } from './mobile-nav-body'

// Issue 37 item 6: while the phone menu is open, nothing it hides (the page
// behind it, read as aria-hidden) can take focus: the rest is inert.
describe('the open phone menu', () => {
  it('leaves nothing hidden focusable, and gives the page back when it closes', async () => {
    const { unmount } = await renderWithProviders(
      <>
        <MobileNavBody accountId="a" defaultOpen trigger={<button type="button">Menu</button>} />
        <a href="/x">Elsewhere</a>
        <input aria-label="Search" />
      </>,
    )
    const menu = await screen.findByRole('menu')
    const focusable = [...document.querySelectorAll<HTMLElement>('a[href], button, input, [tabindex]')].filter(
      (el) => !menu.contains(el),
    )
    expect(focusable.length).toBeGreaterThan(0)
    for (const el of focusable) expect(el.closest('[inert]'), el.outerHTML).not.toBeNull()
    unmount()
    expect(document.querySelector('[inert]')).toBeNull()
  })
})
