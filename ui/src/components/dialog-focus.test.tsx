import { useState } from 'react'
import { screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { renderWithProviders } from '@/test/render'
import { ConfirmationDialog } from './confirmation-dialog'
import { FormDialog } from './form-dialog'

// Issue 37 item 6: every dialog gives focus back to what opened it, whether
// a Radix trigger opened it or a row's button drove `open` (no trigger: Radix
// alone would leave focus on the page's body).

/** A row's button drives the dialog (as the payment methods' Remove, the members' Remove). */
function RowConfirmation() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button onClick={() => setOpen(true)}>Remove row</Button>
      <ConfirmationDialog
        open={open}
        onOpenChange={setOpen}
        title="Remove?"
        description="It goes."
        cancelLabel="Keep"
        confirmLabel="Remove"
        onConfirm={() => setOpen(false)}
      />
    </>
  )
}

function TriggeredConfirmation() {
  const [open, setOpen] = useState(false)
  return (
    <ConfirmationDialog
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

function RowForm() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button onClick={() => setOpen(true)}>Rename row</Button>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title="Rename"
        description="A new name."
        onSubmit={(e) => {
          e.preventDefault()
          setOpen(false)
        }}
        pending={false}
        cancelLabel="Cancel"
        submitLabel="Save"
      >
        <input aria-label="Name" />
      </FormDialog>
    </>
  )
}

function RowDialog() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button onClick={() => setOpen(true)}>Show details</Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent closeLabel="Close">
          <DialogTitle>Details</DialogTitle>
          <DialogDescription>Some.</DialogDescription>
        </DialogContent>
      </Dialog>
    </>
  )
}

describe('dialogs return focus to their opener (issue 37)', () => {
  it('a confirmation opened by a row button: cancelled, focus is back on the button', async () => {
    await renderWithProviders(<RowConfirmation />)
    const opener = screen.getByRole('button', { name: 'Remove row' })
    await userEvent.click(opener)
    await userEvent.click(await screen.findByRole('button', { name: 'Keep' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(opener).toHaveFocus()
  })

  it('a confirmation opened by a row button: confirmed, focus is back on the button', async () => {
    await renderWithProviders(<RowConfirmation />)
    const opener = screen.getByRole('button', { name: 'Remove row' })
    await userEvent.click(opener)
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(opener).toHaveFocus()
  })

  it('a confirmation with its trigger: Escape, focus is back on the trigger', async () => {
    await renderWithProviders(<TriggeredConfirmation />)
    const opener = screen.getByRole('button', { name: 'Stop renewal' })
    await userEvent.click(opener)
    await screen.findByRole('alertdialog')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(opener).toHaveFocus()
  })

  it('a form dialog opened by a row button: saved, focus is back on the button', async () => {
    await renderWithProviders(<RowForm />)
    const opener = screen.getByRole('button', { name: 'Rename row' })
    await userEvent.click(opener)
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(opener).toHaveFocus()
  })

  it('a plain dialog opened by a row button: closed with its X, focus is back on the button', async () => {
    await renderWithProviders(<RowDialog />)
    const opener = screen.getByRole('button', { name: 'Show details' })
    await userEvent.click(opener)
    await userEvent.click(await screen.findByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(opener).toHaveFocus()
  })
})
