import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { forum as aForum } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Schemas } from '@/api/client'
import { EditForumDialog } from './edit-forum-dialog'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
// jsdom has no ResizeObserver, which Radix's switch measures itself with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

const forum = (o: Partial<Schemas['Forum']> = {}) =>
  aForum({ id: 'f1', context: { communityId: 'c1' }, role: 'admin', mainChannelId: 'ch1', adminChannelId: 'ch2', ...o })

describe('EditForumDialog (spec 001 §4, §5)', () => {
  it('shows the rules next to the fields and sends nothing until they hold', async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum()} open onOpenChange={onOpenChange} />)
    await userEvent.clear(screen.getByLabelText('Name'))
    await userEvent.type(screen.getByLabelText('Name'), '   ')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Required.')).toBeInTheDocument()
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
    expect(calls).toHaveLength(0)

    await userEvent.type(screen.getByLabelText('Name'), ' New name ')
    await userEvent.click(screen.getByRole('radio', { name: /Open/ }))
    await userEvent.click(screen.getByRole('switch', { name: 'Members may share posts of this forum' }))
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(calls[0]!.method).toBe('PATCH')
    expect(await calls[0]!.clone().json()).toEqual({
      name: 'New name',
      description: 'About design',
      image: null,
      exclusivity: 'open',
      shareEnabled: true,
      isFree: true,
      price: 3995,
    })
  })

  it('uploads the image as the community form does (POST /api/sas, then the bytes), saves only once it is up, and removes it', async () => {
    const writes: { method: string; path: string; body: unknown }[] = []
    stubFetch(async (method, path, req) => {
      const body: unknown = await req.clone().json().catch(() => undefined)
      writes.push({ method, path, body })
      if (method === 'POST' && path === '/api/sas') return json(201, { id: 'u1', url: 'http://localhost/blob/put/u1', method: 'PUT', expiresOn: '2026-11-25T00:00:00.000Z', maxSize: 3 })
      if (method === 'PATCH' && path === '/api/series/f1') return json(200, forum(body as Partial<Schemas['Forum']>))
      return json(404, { code: 'notFound', message: path })
    })
    // The bytes go to the signed URL by XMLHttpRequest (for its progress);
    // it answers once the test lets it, so Save waits for the upload.
    const puts: string[] = []
    let finish = () => {}
    class FakeXhr {
      status = 0
      responseText = ''
      responseType = ''
      upload = { onprogress: null }
      onload: (() => void) | null = null
      onerror = null
      onabort = null
      open(method: string, url: string) {
        puts.push(`${method} ${url}`)
      }
      setRequestHeader() {}
      abort() {}
      send() {
        finish = () => {
          this.status = 201
          this.responseText = JSON.stringify({ id: 'u1', type: 'image', name: 'cover.png', url: 'http://localhost/blob/u1.png', mediaType: 'image/png', size: 3 })
          this.onload?.()
        }
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr)
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum({ image: null })} open onOpenChange={onOpenChange} />)
    expect(screen.queryByRole('img', { name: 'The chosen image' })).toBeNull()
    await userEvent.upload(screen.getByTestId('image-input'), new File(['png'], 'cover.png', { type: 'image/png' }))
    expect(await screen.findByRole('button', { name: 'Uploading…' })).toBeDisabled()
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled()
    expect(writes).toContainEqual({ method: 'POST', path: '/api/sas', body: { kind: 'image', name: 'cover.png', size: 3, mediaType: 'image/png' } })
    expect(puts).toEqual(['PUT http://localhost/blob/put/u1'])
    act(() => finish())
    expect(await screen.findByRole('img', { name: 'The chosen image' })).toHaveAttribute('src', 'http://localhost/blob/u1.png')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(writes.find((w) => w.method === 'PATCH')?.body).toMatchObject({ image: 'http://localhost/blob/u1.png' })
  })

  it('saves a forum whose image is the picture address an upload was kept at, sending it back unchanged', async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    const kept = '/api/pictures/0190a000-0000-7000-8000-0000000000aa'
    await renderInApp(<EditForumDialog forum={forum({ image: kept })} open onOpenChange={onOpenChange} />)
    expect(screen.getByRole('img', { name: 'The chosen image' })).toHaveAttribute('src', kept)
    await userEvent.type(screen.getByLabelText('Name'), ' again')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(await calls[0]!.clone().json()).toMatchObject({ image: kept })
  })

  it('removes the image a forum has, saving it as none', async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum({ image: 'https://img.example/forum.png' })} open onOpenChange={onOpenChange} />)
    expect(screen.getByRole('img', { name: 'The chosen image' })).toHaveAttribute('src', 'https://img.example/forum.png')
    await userEvent.click(screen.getByRole('button', { name: 'Remove' }))
    expect(screen.queryByRole('img', { name: 'The chosen image' })).toBeNull()
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(await calls[0]!.clone().json()).toMatchObject({ image: null })
  })

  it("makes a forum paid at a price a month, with the community form's limits (spec 000 §2.7, §5)", async () => {
    const calls = stubFetch((_m, _p, req) => req.clone().json().then((b) => json(200, forum(b as Partial<Schemas['Forum']>))))
    const onOpenChange = vi.fn()
    await renderInApp(<EditForumDialog forum={forum()} open onOpenChange={onOpenChange} />)
    // Free: no price asked.
    expect(screen.queryByLabelText('Price a month (USD)')).toBeNull()
    await userEvent.click(screen.getByRole('switch', { name: 'Free forum' }))
    const price = screen.getByLabelText('Price a month (USD)')
    expect(price).toHaveValue('39.95')
    await userEvent.clear(price)
    await userEvent.type(price, '100000')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(screen.getByText('Enter a price from 0 to 99,999.00, with at most two decimals.')).toBeInTheDocument()
    expect(calls).toHaveLength(0)
    await userEvent.clear(price)
    await userEvent.type(price, '15')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false))
    expect(await calls[0]!.clone().json()).toMatchObject({ isFree: false, price: 1500 })
  })

  it('starts from the price of a paid forum', async () => {
    stubFetch(() => json(500))
    await renderInApp(<EditForumDialog forum={forum({ isFree: false, price: 2500 })} open onOpenChange={() => {}} />)
    expect(screen.getByRole('switch', { name: 'Free forum' })).not.toBeChecked()
    expect(screen.getByLabelText('Price a month (USD)')).toHaveValue('25.00')
  })

  it('keeps an open forum open, with the notice', async () => {
    stubFetch(() => json(500))
    await renderInApp(<EditForumDialog forum={forum({ exclusivity: 'open' })} open onOpenChange={() => {}} />)
    expect(screen.getByText("Access Can't Be Changed")).toBeInTheDocument()
    expect(screen.getByRole('radio', { name: /Invite only/ })).toBeDisabled()
    expect(screen.getByRole('radio', { name: /Open/ })).toBeChecked()
  })
})
