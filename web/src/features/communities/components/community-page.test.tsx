import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { CommunityPage } from './community-page'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

afterEach(() => vi.unstubAllGlobals())

const forum = (id: string, name: string) => ({ id, name, description: `About ${name}`, image: null, role: null, isExpert: false, createdOn: '2026-01-01T00:00:00Z' })

let gets: string[] = []

function serve(canManage: boolean) {
  const puts: unknown[] = []
  gets = []
  stubFetch(async (method, path, req) => {
    if (method === 'GET' && path === '/api/communities/c1')
      return json(200, {
        id: 'c1',
        name: 'Leaders',
        description: 'For leaders.',
        image: null,
        video: null,
        videoCover: null,
        organization: { id: 'o1', name: 'Acme' },
        permissions: { canManage, canShare: canManage, canUploadMembers: canManage },
        series: [forum('f1', 'Strategy'), forum('f2', 'People'), forum('f3', 'Money')],
      })
    if (method === 'POST' && path === '/api/communities/get-highlighted-members')
      return json(200, { c1: { total: 7, highlightedMembers: [{ id: 'p1', firstName: 'Ann', lastName: 'Lee', avatar: null }] } })
    if (method === 'GET' && path.startsWith('/api/communities/c1/members?')) {
      const q = new URL(path, 'http://x').searchParams
      gets.push(q.toString())
      const all = [
        { id: 'p1', userId: 'u1', firstName: 'Ann', lastName: 'Lee', avatar: null, jobTitle: 'Coach', company: 'Acme', isSubscribed: true, isExpert: true, assignmentStatus: 'active', role: 'member' },
        { id: 'p2', userId: 'u2', firstName: 'Abel', lastName: 'Adams', avatar: null, jobTitle: '', company: '', isSubscribed: true, isExpert: false, assignmentStatus: 'active', role: 'admin' },
        { id: 'p3', userId: null, firstName: 'Cleo', lastName: 'Clark', avatar: null, jobTitle: '', company: '', isSubscribed: false, isExpert: false, assignmentStatus: 'notInvited', role: 'member' },
      ]
      // The server's index forgives the typo; here it stands for that.
      const kw = q.get('keyword')
      const results = kw === null ? all : kw === 'Adamz' ? [all[1]] : []
      return json(200, { results, total: results.length })
    }
    if (method === 'GET' && path === '/api/sharedposts/new?communityId=c1')
      return json(200, { results: [{ seriesId: 'f2', communityId: 'c1', count: 3, latestOn: '2026-01-02T00:00:00.000Z' }], total: 1 })
    if (method === 'PUT' && path === '/api/communities/c1/series-order') {
      puts.push(await req.json())
      return new Response(null, { status: 204 })
    }
    return json(404, { code: 'notFound', message: 'not found' })
  })
  return puts
}

const order = () => screen.getAllByTestId('community-forum').map((li) => within(li).getAllByText(/^(Strategy|People|Money)$/)[0]!.textContent)

describe('the community page', () => {
  it('shows the forums in order and lets a manager move one, saving the new order', async () => {
    const puts = serve(true)
    await renderInApp(<CommunityPage communityId="c1" createForum={() => null} />)
    expect(await screen.findByRole('heading', { name: 'Leaders', level: 1 })).toBeInTheDocument()
    expect(await screen.findByText('7 members')).toBeInTheDocument()
    expect(order()).toEqual(['Strategy', 'People', 'Money'])
    await userEvent.click(screen.getByRole('button', { name: 'Move Money up' }))
    expect(order()).toEqual(['Strategy', 'Money', 'People'])
    await waitFor(() => expect(puts).toEqual([{ ids: ['f1', 'f3', 'f2'] }]))
    expect(screen.getByRole('button', { name: 'Create forum' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Manage Leaders' })).toBeInTheDocument()
  }, 30_000)

  it('gives a member no reordering, no Share, no Create forum and no admin menu', async () => {
    serve(false)
    await renderInApp(<CommunityPage communityId="c1" createForum={() => null} />)
    expect(await screen.findByRole('heading', { name: 'Leaders', level: 1 })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /^Move / })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Create forum' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Manage Leaders' })).toBeNull()
  }, 30_000)

  it('lists the community\'s members and finds one by name, sending the keyword to the server', async () => {
    serve(false)
    await renderInApp(<CommunityPage communityId="c1" createForum={() => null} />)
    await userEvent.click(await screen.findByRole('button', { name: 'See all members' }))
    const dialog = await screen.findByRole('dialog', { name: /Members/ })
    await waitFor(() => expect(within(dialog).getAllByTestId('community-member-row')).toHaveLength(3))
    const rows = within(dialog).getAllByTestId('community-member-row')
    expect(rows[0]).toHaveTextContent('Ann Lee')
    expect(rows[0]).toHaveTextContent('Expert')
    expect(rows[0]).toHaveTextContent('Coach · Acme')
    expect(rows[1]).toHaveTextContent('Admin')
    expect(rows[2]).toHaveTextContent('Not invited yet')
    expect(gets[0]).toBe('page=1&pageSize=25')
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search members' }), 'Adamz')
    await waitFor(() => expect(within(dialog).getAllByTestId('community-member-row')).toHaveLength(1))
    expect(within(dialog).getByTestId('community-member-row')).toHaveTextContent('Abel Adams')
    expect(within(dialog).getByText('1 member found')).toBeInTheDocument()
    expect(gets.at(-1)).toBe('page=1&pageSize=25&keyword=Adamz')
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search members' }), 'q')
    expect(await within(dialog).findByText('No member matches “Adamzq”.')).toBeInTheDocument()
  }, 30_000)

  it('says how many posts of a forum are new to the member (GET /api/sharedposts/new)', async () => {
    serve(false)
    await renderInApp(<CommunityPage communityId="c1" createForum={() => null} />)
    const people = (await screen.findAllByTestId('community-forum'))[1]!
    expect(await within(people).findByText('3 new posts', {}, { timeout: 10_000 })).toBeInTheDocument()
    expect(screen.getAllByTestId('forum-new-posts')).toHaveLength(1)
  }, 30_000)
})
