import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { deferredMenu, type MenuBodyProps } from './deferred-menu'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './ui/dropdown-menu'

function Body({ trigger, defaultOpen, items }: { items: string[] } & MenuBodyProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent>
        {items.map((item) => (
          <DropdownMenuItem key={item}>{item}</DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

function setup() {
  const load = vi.fn(() => Promise.resolve(Body))
  const Menu = deferredMenu(load)
  render(<Menu items={['Billing', 'Sign out']} trigger={<button type="button">Open</button>} />)
  return { load }
}

describe('deferredMenu', () => {
  it('draws the trigger without loading the menu, and loads it on hover', async () => {
    const user = userEvent.setup()
    const { load } = setup()
    const trigger = screen.getByRole('button', { name: 'Open' })
    expect(trigger).toHaveAttribute('aria-haspopup', 'menu')
    expect(trigger).toHaveAttribute('aria-expanded', 'false')
    expect(load).not.toHaveBeenCalled()
    expect(screen.queryByRole('menu')).toBeNull()
    await user.hover(trigger)
    expect(load).toHaveBeenCalled()
    expect(screen.queryByRole('menu')).toBeNull() // intent fetches; only a press opens
  })

  it('a click opens the real menu at once, whose items work', async () => {
    const user = userEvent.setup()
    setup()
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(await screen.findByRole('menuitem', { name: 'Billing' })).toBeVisible()
    // (the open menu is modal: the page behind it, trigger included, is aria-hidden)
    expect(screen.getByRole('button', { name: 'Open', hidden: true })).toHaveAttribute('aria-expanded', 'true')
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('menu')).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Open' })) // the real trigger now
    expect(await screen.findByRole('menuitem', { name: 'Sign out' })).toBeVisible()
  })

  it('Enter on the focused trigger opens it too (keyboard)', async () => {
    const user = userEvent.setup()
    setup()
    await user.tab()
    expect(screen.getByRole('button', { name: 'Open' })).toHaveFocus()
    await user.keyboard('{Enter}')
    expect(await screen.findByRole('menuitem', { name: 'Billing' })).toBeVisible()
  })
})
