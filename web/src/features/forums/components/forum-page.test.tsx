import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { forum as aForum, forumMember } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Schemas } from '@/api/client'
import { Toaster } from '@/components/ui/toast'
import { forumVisitQuery } from '../api/record-visit'
import { ForumPage } from './forum-page'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const F = '00000000-0000-4000-8000-0000000000f1'
const forum = (o: Partial<Schemas['Forum']> = {}) => aForum({ id: F, context: { communityId: 'c1' }, mainChannelId: 'ch1', ...o })
const member = (id: string, isExpert: boolean) =>
  forumMember(id, { id, userId: `u-${id}`, email: `${id}@demo.test`, jobTitle: 'Engineer', company: 'Acme', isExpert, role: isExpert ? 'member-expert' : 'member' })

/** api answers the forum page's reads; anything else is a 404. */
function api(f: Schemas['Forum'] | { status: number; code: string }) {
  return stubFetch((method, path) => {
    if (path === `/api/series/${F}`) return 'status' in f ? json(f.status, { code: f.code, message: 'x' }) : json(200, f)
    if (method === 'POST' && path === `/api/series/${F}/visits`) return json(200, { previouslyVisitedOn: '2026-02-03T04:05:06.000Z' })
    if (path.startsWith(`/api/series/${F}/members`))
      return json(200, { results: [member('Ada', true), member('Bob', false), member('Cy', false)], total: 12 })
    return json(404, { code: 'notFound', message: path })
  })
}

const render = (props: Partial<Parameters<typeof ForumPage>[0]> = {}) =>
  renderInApp(
    <>
      <ForumPage seriesId={F} communityId="c1" feed={(f) => <p data-testid="feed">{f.name}</p>} {...props} />
      <Toaster />
    </>,
    { path: '/communities/c1/series/' + F },
  )

describe('ForumPage (spec 001 §2, §8)', () => {
  it.each([
    [403, 'seriesForbidden'],
    [404, 'notFound'],
  ])('sends the user home with seriesForbidden on a %i, recording no visit', async (status, code) => {
    const calls = api({ status, code })
    const { router } = await render()
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(await screen.findByText('This forum does not exist, or you do not have access to it.')).toBeInTheDocument()
    expect(calls.some((c) => c.url.endsWith('/visits'))).toBe(false)
  })

  it('sends the user home with seriesLoading on any other failure', async () => {
    api({ status: 400, code: 'validationFailed' })
    const { router } = await render()
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
    expect(await screen.findByText('The forum could not be loaded.')).toBeInTheDocument()
  })

  it('shows the header and the strip, records one visit and keeps the previous one for the feed', async () => {
    const calls = api(forum())
    const { queryClient } = await render()
    expect(await screen.findByRole('heading', { name: 'Design Forum', level: 1 })).toBeInTheDocument()
    const strip = await screen.findByTestId('members-strip')
    expect(strip).toHaveAccessibleName('Members of this forum: 12 members, Ada Person (Expert), Bob Person, Cy Person')
    expect(strip).toHaveTextContent('+9')
    expect(strip.querySelectorAll('[data-testid=expert-star]')).toHaveLength(1)
    const stripCall = calls.find((c) => c.url.includes('/members'))!
    expect(new URL(stripCall.url).searchParams.toString()).toBe('page=1&pageSize=3&sort=isExpert+desc')
    await waitFor(() => expect(queryClient.getQueryData(forumVisitQuery(F).queryKey)).toEqual({ previouslyVisitedOn: '2026-02-03T04:05:06.000Z' }))
    expect(calls.filter((c) => c.method === 'POST' && c.url.endsWith('/visits'))).toHaveLength(1)
    // A member sees no Manage Access and no forum settings.
    expect(screen.queryByRole('button', { name: 'Manage Access' })).toBeNull()
    expect(screen.queryByRole('button', { name: 'Forum settings' })).toBeNull()
    expect(screen.queryByTestId('subscribe-prompt')).toBeNull()
  })

  it('shows the feed it is given once the forum is read', async () => {
    api(forum())
    await render()
    expect(await screen.findByTestId('feed')).toHaveTextContent('Design Forum')
  })

  it('opens the members list, experts first', async () => {
    api(forum())
    await render()
    await userEvent.click(await screen.findByTestId('members-strip'))
    const rows = await screen.findAllByTestId('member-row')
    expect(rows[0]).toHaveTextContent('Ada PersonExpert')
    expect(screen.getByRole('dialog', { name: /Members/ })).toBeInTheDocument()
  })

  it('gives forum admins Manage Access, hidden on narrow screens', async () => {
    api(forum({ role: 'admin', isSubscribed: false }))
    await render()
    const button = await screen.findByRole('button', { name: 'Manage Access' })
    expect(button).toHaveClass('hidden', 'md:inline-flex')
    // Admins read the forum by their role, so they are not asked to subscribe.
    expect(screen.queryByTestId('subscribe-prompt')).toBeNull()
  })

  it('keeps the posts of a forum the member has no access to, and gives it to the subscribe flow', async () => {
    api(forum({ isSubscribed: false }))
    const subscribe = vi.fn((f: Schemas['Forum']) => <p data-testid="subscribe">{f.name}</p>)
    await render({ subscribe })
    expect(await screen.findByTestId('subscribe')).toHaveTextContent('Design Forum')
    expect(screen.getByTestId('forum-locked')).toHaveTextContent('The posts of this forum open once you join it.')
    expect(screen.queryByTestId('feed')).toBeNull()
  })

  it('gives the subscribe flow no forum admin', async () => {
    api(forum({ role: 'admin', isSubscribed: false }))
    const subscribe = vi.fn(() => <p data-testid="subscribe" />)
    await render({ subscribe })
    expect(await screen.findByTestId('feed')).toBeInTheDocument()
    expect(subscribe).not.toHaveBeenCalled()
  })

  it('shows the single-post tagline', async () => {
    api(forum())
    await render({ postId: 'p1', reason: 'mention', community: { name: 'Builders', forums: [] } })
    expect(await screen.findByTestId('post-tagline')).toHaveTextContent('in Design Forum in Builders')
    expect(screen.getByRole('link', { name: 'Back to the forum' })).toBeInTheDocument()
  })
})
