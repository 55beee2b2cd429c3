import { useState } from 'react'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { Button } from '@/components/ui/button'
import { getReportedError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { ConfirmationDialog } from './confirmation-dialog'
import { lazyDialog } from './lazy-dialog'

// A dialog whose code comes on demand (issue 37 item 9, round 8).
describe('lazyDialog', () => {
  it('whose code does not come: the error popup says so and the dialog closes; the next click tries again', async () => {
    // Offline until the test says: the hover's and the click's fetches fail.
    let offline = true
    const Lazy = lazyDialog(() => (offline ? Promise.reject(new Error('offline')) : Promise.resolve(ConfirmationDialog)))
    function Page() {
      const [open, setOpen] = useState(false)
      return (
        <Lazy
          open={open}
          onOpenChange={setOpen}
          trigger={<Button>Stop renewal</Button>}
          title="Stop?"
          description="It stops."
          cancelLabel="Keep"
          confirmLabel="Stop"
          onConfirm={() => setOpen(false)}
        />
      )
    }
    await renderWithProviders(<Page />)
    const opener = screen.getByRole('button', { name: 'Stop renewal' })
    await userEvent.click(opener)
    await waitFor(() => expect(getReportedError()).not.toBeNull())
    await waitFor(() => expect(opener).toHaveAttribute('aria-expanded', 'false'))
    expect(screen.queryByTestId('dialog-loading')).not.toBeInTheDocument()

    offline = false
    await userEvent.click(opener)
    const dialog = await screen.findByRole('alertdialog', { name: 'Stop?' })
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true))
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    await waitFor(() => expect(opener).toHaveFocus())
  })
})
