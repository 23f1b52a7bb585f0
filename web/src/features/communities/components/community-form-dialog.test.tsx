import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Community } from '../api/types'
import { CommunityFormDialog } from './community-form-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

// jsdom has no ResizeObserver, which Radix's switch measures itself with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

afterEach(() => vi.unstubAllGlobals())

describe('the community form', () => {
  it('keeps Submit disabled while the form breaks a rule, then creates the community, reads it and opens it', async () => {
    const calls = stubFetch(async (method, path, req) => {
      if (method === 'POST' && path === '/api/organizations/o1/communities') {
        expect(await req.json()).toMatchObject({ name: 'Leaders', description: 'For leaders.', price: 3995, isFree: false, video: null })
        return json(201, { id: 'c9' })
      }
      if (method === 'GET' && path === '/api/communities/c9') return json(200, { id: 'c9', name: 'Leaders', series: [] })
      return json(404, { code: 'notFound', message: 'not found' })
    })
    const { router } = await renderInApp(<CommunityFormDialog target={{ organization: { id: 'o1', name: 'Acme' } }} open onOpenChange={() => {}} />)
    const create = screen.getByRole('button', { name: 'Create' })
    expect(create).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Name'), 'Leaders')
    await userEvent.type(screen.getByLabelText('Description'), 'For leaders.')
    expect(create).toBeEnabled()

    await userEvent.type(screen.getByLabelText('Video link'), 'https://example.com/v.mp4')
    expect(await screen.findByText('Use a YouTube or Vimeo video link.')).toBeInTheDocument()
    expect(create).toBeDisabled()
    await userEvent.clear(screen.getByLabelText('Video link'))
    expect(create).toBeEnabled()

    // A new community is free until the admin makes it paid; the price is then the default.
    const free = screen.getByRole('switch', { name: 'Free community' })
    expect(free).toBeChecked()
    expect(screen.queryByLabelText('Price (USD)')).toBeNull()
    await userEvent.click(free)
    expect(screen.getByLabelText('Price (USD)')).toHaveValue('39.95')

    await userEvent.click(create)
    await waitFor(() => expect(router.state.location.pathname).toBe('/communities/c9'))
    expect(calls.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(['POST /api/organizations/o1/communities', 'GET /api/communities/c9'])
  }, 30_000)

  it('sends only the changed fields of an edited community', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }))
    const community = {
      id: 'c1',
      name: 'Leaders',
      description: 'For leaders.',
      image: null,
      video: null,
      videoCover: null,
      price: 3995,
      isFree: false,
      ssoAccess: false,
    } as Community
    await renderInApp(<CommunityFormDialog target={{ community }} open onOpenChange={() => {}} />)
    await userEvent.clear(screen.getByLabelText('Name'))
    await userEvent.type(screen.getByLabelText('Name'), 'Leaders Club')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(calls.filter((r) => r.method === 'PATCH')).toHaveLength(1))
    const patch = calls.find((r) => r.method === 'PATCH')!
    expect(new URL(patch.url).pathname).toBe('/api/communities/c1')
    expect(await patch.json()).toEqual({ name: 'Leaders Club' })
  }, 30_000)

  it('saves an edited community whose image is the picture address its upload was kept at', async () => {
    const calls = stubFetch(() => new Response(null, { status: 204 }))
    const kept = '/api/pictures/0190a000-0000-7000-8000-0000000000aa'
    const community = { id: 'c1', name: 'Leaders', description: 'For leaders.', image: kept, video: null, videoCover: null, price: 3995, isFree: true, ssoAccess: false } as Community
    await renderInApp(<CommunityFormDialog target={{ community }} open onOpenChange={() => {}} />)
    expect(screen.getByRole('img', { name: 'The chosen image' })).toHaveAttribute('src', kept)
    await userEvent.type(screen.getByLabelText('Name'), ' Club')
    const save = screen.getByRole('button', { name: 'Save' })
    expect(save).toBeEnabled()
    await userEvent.click(save)
    await waitFor(() => expect(calls.filter((r) => r.method === 'PATCH')).toHaveLength(1))
    expect(await calls.find((r) => r.method === 'PATCH')!.json()).toEqual({ name: 'Leaders Club' })
  }, 30_000)
})
