import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import * as v from 'valibot'
import { useSchemaForm } from './schema-form'
import { emailSchema, msg, passwordSchema } from './validators'

const schema = v.object({ email: emailSchema, password: passwordSchema })

function TestForm({ onValid }: { onValid: (values: v.InferOutput<typeof schema>) => unknown }) {
  const form = useSchemaForm(schema, { email: '', password: '' })
  const { errors } = form.formState
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <label>
        E-mail
        <input {...form.register('email')} />
      </label>
      <p data-testid="email-error">{errors.email?.message}</p>
      <label>
        Password
        <input {...form.register('password')} />
      </label>
      <p data-testid="password-error">{errors.password?.message}</p>
      <button type="button" onClick={() => form.setError('password', { type: 'server', message: 'server' }, { shouldFocus: true })}>
        Server error
      </button>
      <button type="submit">Submit</button>
    </form>
  )
}

describe('useSchemaForm', () => {
  it('validates nothing before the first submit', async () => {
    render(<TestForm onValid={vi.fn()} />)
    await userEvent.type(screen.getByLabelText('E-mail'), 'not-an-e-mail')
    expect(screen.getByTestId('email-error')).toBeEmptyDOMElement()
  })

  it('on submit shows the first issue of each field and focuses the first invalid field', async () => {
    const onValid = vi.fn()
    render(<TestForm onValid={onValid} />)
    await userEvent.type(screen.getByLabelText('Password'), 'short')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(screen.getByTestId('email-error')).toHaveTextContent(msg.emailRequired)
    expect(screen.getByTestId('password-error')).toHaveTextContent(msg.passwordTooShort)
    expect(screen.getByLabelText('E-mail')).toHaveFocus()
    expect(onValid).not.toHaveBeenCalled()
  })

  it('after a submit re-validates the changed field only', async () => {
    render(<TestForm onValid={vi.fn()} />)
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await userEvent.type(screen.getByLabelText('E-mail'), 'jane@')
    expect(screen.getByTestId('email-error')).toHaveTextContent(msg.emailInvalid)
    await userEvent.type(screen.getByLabelText('E-mail'), 'example.com')
    expect(screen.getByTestId('email-error')).toBeEmptyDOMElement()
    expect(screen.getByTestId('password-error')).toHaveTextContent(msg.passwordRequired)
  })

  it('submits the schema output (trimmed) and clears the errors', async () => {
    const onValid = vi.fn()
    render(<TestForm onValid={onValid} />)
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    await userEvent.type(screen.getByLabelText('E-mail'), ' jane@example.com ')
    await userEvent.type(screen.getByLabelText('Password'), 'Secret12!')
    await userEvent.click(screen.getByRole('button', { name: 'Submit' }))
    expect(onValid).toHaveBeenCalledWith({ email: 'jane@example.com', password: 'Secret12!' })
    expect(screen.getByTestId('email-error')).toBeEmptyDOMElement()
    expect(screen.getByTestId('password-error')).toBeEmptyDOMElement()
  })

  it('setError shows the error and focuses the field on request', async () => {
    render(<TestForm onValid={vi.fn()} />)
    await userEvent.click(screen.getByRole('button', { name: 'Server error' }))
    expect(screen.getByTestId('password-error')).toHaveTextContent('server')
    expect(screen.getByLabelText('Password')).toHaveFocus()
  })
})
