import { screen } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { ManageCommunitiesDialog } from './manage-communities-dialog'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

// jsdom has no ResizeObserver, which Radix's switch measures itself with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

afterEach(() => vi.unstubAllGlobals())

const community = (id: string, name: string, video: string | null = null) => ({
  id,
  name,
  description: '',
  image: null,
  video,
  videoCover: null,
  organization: { id: 'o1', name: 'Acme' },
  permissions: { canManage: true, canShare: true, canUploadMembers: true },
})

describe('Manage Communities', () => {
  it('lists the manageable communities with their members, and asks for the organisation of a new one', async () => {
    const calls = stubFetch((method, path) => {
      if (method === 'GET' && path.startsWith('/api/communities?'))
        return json(200, { results: [community('c1', 'Leaders', 'https://vimeo.com/123'), community('c2', 'Makers')], total: 2 })
      if (method === 'GET' && path === '/api/permissions?type=organization')
        return json(200, { whichOnesCanIManage: [], whichOnesCanIAddCommunitiesTo: [{ id: 'o1', name: 'Acme' }, { id: 'o2', name: 'Beta' }] })
      if (method === 'POST' && path === '/api/communities/get-highlighted-members')
        return json(200, { c1: { total: 5, highlightedMembers: [{ id: 'p1', firstName: 'Ann', lastName: 'Lee', avatar: null }] } })
      return json(404, { code: 'notFound', message: 'not found' })
    })
    await renderInApp(<ManageCommunitiesDialog open onOpenChange={() => {}} />)
    expect(await screen.findAllByTestId('manage-community-row')).toHaveLength(2)
    expect(new URL(calls[0]!.url).searchParams.get('presetFilter')).toBe('manageable')
    expect(screen.getByRole('button', { name: 'Play the video of Leaders' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Play the video of Makers' })).toBeNull()
    expect(await screen.findByRole('group', { name: 'Ann Lee' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Open Leaders' })).toHaveAttribute('href', '/communities/c1')

    await userEvent.click(screen.getByRole('button', { name: 'Add community' }))
    const pick = await screen.findByTestId('select-organization-dialog')
    const select = screen.getByRole('button', { name: 'Select' })
    expect(pick).toBeInTheDocument()
    expect(select).toBeDisabled()
    await userEvent.click(screen.getByRole('radio', { name: 'Beta' }))
    expect(select).toBeEnabled()
    await userEvent.click(select)
    expect(await screen.findByText('A new community of Beta. Members join by invitation.')).toBeInTheDocument()
  }, 30_000)
})
