import { act, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from './dropdown-menu'

function Menu() {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger>Open</DropdownMenuTrigger>
      <DropdownMenuContent>
        {['Account settings', 'Billing', 'Preferences', 'Request a feature'].map((item) => (
          <DropdownMenuItem key={item}>{item}</DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)))

describe('DropdownMenu type-ahead (SPEC §9: reset after 350 ms)', () => {
  it('a key typed 400 ms after the last starts a new search', async () => {
    const user = userEvent.setup()
    render(<Menu />)
    await user.click(screen.getByRole('button', { name: 'Open' }))
    await user.keyboard('b')
    expect(screen.getByRole('menuitem', { name: 'Billing' })).toHaveFocus()
    await wait(400)
    await user.keyboard('p')
    expect(screen.getByRole('menuitem', { name: 'Preferences' })).toHaveFocus()
  })

  it('keys typed quickly search together', async () => {
    const user = userEvent.setup()
    render(<Menu />)
    await user.click(screen.getByRole('button', { name: 'Open' }))
    await user.keyboard('re')
    expect(screen.getByRole('menuitem', { name: 'Request a feature' })).toHaveFocus()
  })
})
