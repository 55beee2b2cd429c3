import { Suspense } from 'react'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorPopup } from '@/components/error-popup'
import { ApiError } from '@/lib/api-client'
import { LOGO_MAX_BYTES, POLL_MS } from '@/lib/constants'
import { dismissError } from '@/lib/error-store'
import { renderWithProviders } from '@/test/render'
import { accountBody, calls, json, mockApi } from '@/test/mock-api'
import { storageUploader } from '../api/upload-logo'
import { LogoCard } from './logo-card'

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
  act(() => dismissError())
})

const PUBLIC = {
  img_url: 'public/logos/a/1.png',
  logo_url: 'https://cdn.example.com/public/logos/a/1.png',
  logo_error: '',
}

function account(logo: { img_url?: string; logo_url?: string; logo_error?: string } = {}) {
  const body = accountBody()
  return { ...body, account: { ...body.account, img_url: '', logo_url: '', logo_error: '', ...logo } }
}

function render() {
  return renderWithProviders(
    <>
      <Suspense fallback={null}>
        <LogoCard accountId="a" />
      </Suspense>
      <ErrorPopup />
    </>,
  )
}

function png(name = 'logo.png', size = 2048): File {
  const file = new File(['png'], name, { type: 'image/png' })
  Object.defineProperty(file, 'size', { value: size })
  return file
}

const input = () => screen.findByLabelText('Upload logo')
// userEvent.upload would drop files the accept attribute does not list; the
// component must refuse them itself (a drop has no accept filter at all).
const user = () => userEvent.setup({ applyAccept: false })

describe('LogoCard: placeholder', () => {
  it.each(['', 'BLANK', 'placeholder:none'])('%j shows the drop zone with a labelled file input', async (img_url) => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, account({ img_url })) })
    await render()
    const fileInput = await input()
    expect(fileInput).toHaveAttribute('type', 'file')
    expect(fileInput).toHaveAttribute('accept', 'image/png,image/jpeg')
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeInTheDocument()
    expect(screen.getByText('PNG or JPEG, at most 10 MB.')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Delete logo' })).toBeNull()
  })

  it.each([
    ['not_an_image', 'We could not use your last upload: the file is not a PNG or JPEG image.'],
    ['too_large', 'We could not use your last upload: the file is larger than 10 MB.'],
    ['too_many_pixels', 'We could not use your last upload: the image has too many pixels (at most 16 megapixels).'],
    ['unreadable', 'We could not use your last upload: the file could not be read (damaged file?).'],
    ['missing', 'We could not use your last upload: the file never arrived, please try again.'],
    ['failed', 'We could not use your last upload: the file could not be processed, please try again.'],
    ['brand_new_reason', 'We could not use your last upload: the file could not be processed, please try again.'],
  ])('says why the server refused the last upload (%s)', async (logo_error, text) => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, account({ img_url: 'placeholder:none', logo_error })) })
    await render()
    expect(await screen.findByRole('alert')).toHaveTextContent(text)
  })

  it('refuses a file that is not an image before sending anything', async () => {
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, account()) })
    await render()
    await user().upload(await input(), new File(['gif'], 'logo.gif', { type: 'image/gif' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not an image. Choose a PNG or JPEG file.')
    expect(calls(fetch)).toEqual(['GET /v1/accounts/a'])
  })

  it('refuses a file larger than 10 MB before sending anything', async () => {
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, account()) })
    await render()
    await user().upload(await input(), png('big.png', LOGO_MAX_BYTES + 1))
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is larger than 10 MB. Choose a smaller image.')
    expect(calls(fetch)).toEqual(['GET /v1/accounts/a'])
  })

  it('does nothing when no file is chosen or dropped', async () => {
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, account()) })
    const put = vi.spyOn(storageUploader, 'put')
    await render()
    fireEvent.change(await input(), { target: { files: [] } })
    fireEvent.drop(screen.getByTestId('logo-drop-zone'), { dataTransfer: { files: [] } })
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(calls(fetch)).toEqual(['GET /v1/accounts/a'])
    expect(put).not.toHaveBeenCalled()
  })

  it('highlights the drop zone while a file is dragged over it', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, account()) })
    await render()
    await input()
    const zone = screen.getByTestId('logo-drop-zone')
    fireEvent.dragEnter(zone, { dataTransfer: { files: [] } })
    expect(zone).toHaveAttribute('data-dragging', 'true')
    fireEvent.dragLeave(zone, { relatedTarget: document.body })
    expect(zone).not.toHaveAttribute('data-dragging')
  })

  it('the button opens the file chooser', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, account()) })
    await render()
    const click = vi.spyOn(await input(), 'click')
    await userEvent.click(screen.getByRole('button', { name: 'Choose a file' }))
    expect(click).toHaveBeenCalledTimes(1)
  })
})

describe('LogoCard: upload', () => {
  it('requests a link, shows the progress of the storage PUT, then finalises and shows processing', async () => {
    let img_url = ''
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, account({ img_url })),
      'POST /v1/accounts/a/upload-logo': () => json(200, { presigned_url: 'https://storage.example/tmp/x?sig=1' }),
      'PUT /v1/accounts/a/upload-logo': () => {
        img_url = 'tmp/logos/a/1.png'
        return json(200, { img_url })
      },
    })
    let finishStorage = () => {}
    let reportProgress: (percent: number) => void = () => {}
    const put = vi.spyOn(storageUploader, 'put').mockImplementation((_url, _file, _type, onProgress) => {
      reportProgress = onProgress
      return new Promise<void>((resolve) => (finishStorage = resolve))
    })
    await render()
    const file = png('Brand Logo.png')
    fireEvent.drop(await screen.findByTestId('logo-drop-zone'), { dataTransfer: { files: [file] } })

    const bar = await screen.findByRole('progressbar', { name: 'Upload progress' })
    expect(bar).toHaveAttribute('aria-valuemin', '0')
    expect(bar).toHaveAttribute('aria-valuemax', '100')
    expect(bar).toHaveAttribute('aria-valuenow', '0')
    expect(screen.getByText('Uploading Brand Logo.png…')).toBeInTheDocument()
    await waitFor(() => expect(put).toHaveBeenCalledWith('https://storage.example/tmp/x?sig=1', file, 'image/png', expect.any(Function)))
    act(() => reportProgress(42))
    expect(bar).toHaveAttribute('aria-valuenow', '42')
    expect(screen.getByText('42%')).toBeInTheDocument()
    expect(screen.queryByLabelText('Upload logo')).toBeNull()

    act(() => finishStorage())
    expect(await screen.findByText('Processing your logo…')).toBeInTheDocument()
    expect(screen.getByTestId('logo-status')).toHaveTextContent('Processing your logo…')
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.queryByLabelText('Upload logo')).toBeNull()
    await waitFor(() =>
      expect(calls(fetch)).toEqual([
        'GET /v1/accounts/a',
        'POST /v1/accounts/a/upload-logo',
        'PUT /v1/accounts/a/upload-logo',
        'GET /v1/accounts/a',
      ]),
    )
    const post = fetch.mock.calls.find(([url, init]) => url === '/v1/accounts/a/upload-logo' && init?.method === 'POST')
    // The size is signed into the link.
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({ filename: 'Brand Logo.png', size: 2048 })
    const finish = fetch.mock.calls.find(([, init]) => init?.method === 'PUT')
    expect(finish?.[1]?.body).toBeUndefined()
  })

  it('a failed storage PUT shows the 500 popup and the drop zone again, without finalising', async () => {
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, account()),
      'POST /v1/accounts/a/upload-logo': () => json(200, { presigned_url: 'https://storage.example/tmp/x' }),
    })
    vi.spyOn(storageUploader, 'put').mockRejectedValue(new ApiError(500, 'logo_upload_failed', 'storage'))
    await render()
    await user().upload(await input(), png())
    expect(await screen.findByText('Whoops.. There was an error.')).toBeInTheDocument()
    expect(screen.getAllByText('The server encountered an error.').length).toBeGreaterThan(0)
    expect(await screen.findByLabelText('Upload logo')).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('PUT /v1/accounts/a/upload-logo')
  })

  it('a 409 (a logo is already set) shows the popup and re-reads the account', async () => {
    let img_url = ''
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, account({ img_url })),
      'POST /v1/accounts/a/upload-logo': () => {
        img_url = 'tmp/logos/a/2.png'
        return json(409, { error: { status: 409, code: 'conflict', message: 'A logo is already set' } })
      },
    })
    const put = vi.spyOn(storageUploader, 'put')
    await render()
    await user().upload(await input(), png())
    expect(await screen.findByText('Whoops.. There was an error.')).toBeInTheDocument()
    expect(await screen.findByText('Processing your logo…')).toBeInTheDocument()
    expect(put).not.toHaveBeenCalled()
    expect(calls(fetch).filter((c) => c === 'GET /v1/accounts/a')).toHaveLength(2)
  })

  it('a 422 not_an_image from the server says the file is not an image', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, account()),
      'POST /v1/accounts/a/upload-logo': () =>
        json(422, { error: { status: 422, code: 'invalid', message: 'x', fields: { filename: 'not_an_image' } } }),
    })
    await render()
    await user().upload(await input(), png())
    expect(await screen.findByText('This file is not an image. Choose a PNG or JPEG file.')).toBeInTheDocument()
  })
})

describe('LogoCard: processing', () => {
  it('polls the account every 2.5 s while temporary and announces the ready logo', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const answers = [{ img_url: 'tmp/logos/a/1.png' }, { img_url: 'tmp/logos/a/1.png' }, PUBLIC]
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, account(answers.shift() ?? PUBLIC)) })
    await render()
    expect(await screen.findByText('Processing your logo…')).toBeInTheDocument()
    expect(screen.getByText('This takes a few seconds; the page updates by itself.')).toBeInTheDocument()
    expect(screen.queryByLabelText('Upload logo')).toBeNull()
    expect(fetch).toHaveBeenCalledTimes(1)

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS))
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(2))
    expect(screen.getByText('Processing your logo…')).toBeInTheDocument()

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS))
    expect(await screen.findByRole('img', { name: 'Logo of Acme' })).toBeInTheDocument()
    expect(screen.getByTestId('logo-status')).toHaveTextContent('Your logo is ready.')
    expect(screen.queryByText('Processing your logo…')).toBeNull()

    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3))
    expect(fetch).toHaveBeenCalledTimes(3)
  })

  it('a refused upload comes back as the placeholder with the reason', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const answers = [{ img_url: 'tmp/logos/a/1.png' }, { img_url: 'placeholder:none', logo_error: 'unreadable' }]
    mockApi({ 'GET /v1/accounts/a': () => json(200, account(answers.shift() ?? answers[0])) })
    await render()
    expect(await screen.findByText('Processing your logo…')).toBeInTheDocument()
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS))
    expect(await screen.findByRole('alert')).toHaveTextContent('the file could not be read (damaged file?)')
    expect(screen.getByLabelText('Upload logo')).toBeInTheDocument()
  })
})

describe('LogoCard: public', () => {
  it('shows the logo with change and delete, and no upload', async () => {
    mockApi({ 'GET /v1/accounts/a': () => json(200, account(PUBLIC)) })
    await render()
    const img = await screen.findByRole('img', { name: 'Logo of Acme' })
    expect(img).toHaveAttribute('src', 'https://cdn.example.com/public/logos/a/1.png')
    expect(img).toHaveAttribute('title', 'logos/a/1.png')
    expect(screen.getByRole('button', { name: 'Change logo' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete logo' })).toBeInTheDocument()
    expect(screen.queryByLabelText('Upload logo')).toBeNull()
    expect(screen.queryByTestId('logo-drop-zone')).toBeNull()
  })

  it('delete asks for confirmation, calls DELETE and shows the drop zone with the focus on it', async () => {
    let logo = PUBLIC
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, account(logo)),
      'DELETE /v1/accounts/a/upload-logo': () => {
        logo = { img_url: 'placeholder:none', logo_url: '', logo_error: '' }
        return new Response(null, { status: 204 })
      },
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Delete logo' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your logo?' })
    expect(within(dialog).getByText(/show no logo until you upload a new one/)).toBeInTheDocument()
    expect(calls(fetch)).not.toContain('DELETE /v1/accounts/a/upload-logo')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(await screen.findByLabelText('Upload logo')).toBeInTheDocument()
    expect(screen.queryByRole('img')).toBeNull()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Choose a file' })).toHaveFocus())
    expect(screen.getByTestId('logo-status')).toHaveTextContent('Your logo has been deleted.')
    expect(calls(fetch).filter((c) => c === 'DELETE /v1/accounts/a/upload-logo')).toHaveLength(1)
  })

  it('cancel keeps the logo and calls nothing', async () => {
    const fetch = mockApi({ 'GET /v1/accounts/a': () => json(200, account(PUBLIC)) })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Delete logo' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
    expect(screen.getByRole('img', { name: 'Logo of Acme' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Delete logo' })).toHaveFocus()
    expect(calls(fetch)).toEqual(['GET /v1/accounts/a'])
  })

  it('change removes the logo and opens the file chooser of the drop zone', async () => {
    let logo = PUBLIC
    const fetch = mockApi({
      'GET /v1/accounts/a': () => json(200, account(logo)),
      'DELETE /v1/accounts/a/upload-logo': () => {
        logo = { img_url: '', logo_url: '', logo_error: '' }
        return new Response(null, { status: 204 })
      },
    })
    const click = vi.spyOn(HTMLInputElement.prototype, 'click')
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Change logo' }))
    const fileInput = await input()
    await waitFor(() => expect(click).toHaveBeenCalled())
    expect(click.mock.contexts[0]).toBe(fileInput)
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(calls(fetch)).toContain('DELETE /v1/accounts/a/upload-logo')
  })

  it('a failed delete shows the popup and keeps the logo', async () => {
    mockApi({
      'GET /v1/accounts/a': () => json(200, account(PUBLIC)),
      'DELETE /v1/accounts/a/upload-logo': () => json(500, { error: { status: 500, code: 'internal', message: 'x' } }),
    })
    await render()
    await userEvent.click(await screen.findByRole('button', { name: 'Delete logo' }))
    await userEvent.click(await screen.findByRole('button', { name: 'Delete' }))
    expect(await screen.findByText('Whoops.. There was an error.')).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Logo of Acme' })).toBeInTheDocument()
  })
})
