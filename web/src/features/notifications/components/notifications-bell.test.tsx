import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { json, personalizationServer, renderInApp, stubFetch } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import type { Notification } from '../api/types'
import { NotificationsBell } from './notifications-bell'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const ADA = '0190a000-0000-7000-8000-0000000000aa'
const COMMUNITY = '0190a000-0000-7000-8000-0000000000c0'
const SERIES = '0190a000-0000-7000-8000-0000000000f1'

function note(i: number, over: Partial<Notification> = {}): Notification {
  return {
    id: `0190a000-0000-7000-8000-${String(i).padStart(12, '0')}`,
    type: 'comment',
    createdOn: '2026-11-24T09:00:00.000Z',
    author: { userId: ADA, firstName: 'Ada', lastName: 'L', avatar: null },
    raw: `comment ${i}`,
    context: { communityId: COMMUNITY, communityName: 'Growers', seriesId: SERIES, seriesName: 'Gardening' },
    postId: `0190a000-0000-7000-8000-0000000001${String(i).padStart(2, '0')}`,
    replyId: null,
    isRead: false,
    isUnread: false,
    ...over,
  }
}

// The IntersectionObserver jsdom lacks: the test says when the list's end comes into view.
let observed: ((entries: { isIntersecting: boolean }[]) => void)[] = []
class FakeObserver {
  constructor(private cb: (entries: { isIntersecting: boolean }[]) => void) {}
  observe() {
    observed.push(this.cb)
  }
  disconnect() {
    observed = observed.filter((c) => c !== this.cb)
  }
}
const scrollToEnd = () => act(() => observed.forEach((cb) => cb([{ isIntersecting: true }])))

function screenSize(wide: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: wide, media: query, addEventListener() {}, removeEventListener() {} }))
}

beforeEach(() => {
  observed = []
  vi.stubGlobal('IntersectionObserver', FakeObserver)
  screenSize(true)
})
afterEach(() => vi.unstubAllGlobals())

type Served = {
  list?: Notification[]
  unread?: number
  personalization?: Record<string, unknown>
  failNotifications?: () => boolean
  /** hold delays the personalization's answers until the promise it gives settles. */
  hold?: (method: string) => Promise<void>
}

/** serve answers the notifications page by page and the personalization, merging PATCHes as the server does. */
function serve({ list = [], unread = 0, personalization = {}, failNotifications = () => false, hold }: Served) {
  const { stored, patches, answer } = personalizationServer(ME, { ...personalization })
  const calls = stubFetch(async (method, path, req) => {
    if (path.startsWith('/api/notifications?')) {
      if (failNotifications()) return json(500, { code: 'internalError', message: 'no' })
      const q = new URL(path, 'http://x').searchParams
      const page = Number(q.get('page'))
      const size = Number(q.get('pageSize'))
      const shown = list.filter((n) => !((stored['notifications.posts.dismissed'] as string[] | undefined) ?? []).includes(n.id))
      // Seen once the list was closed.
      return json(200, { results: shown.slice((page - 1) * size, page * size), total: shown.length, unread: stored['notifications.posts.lastSeenAt'] ? 0 : unread })
    }
    if (hold && path.includes('/personalization')) await hold(method)
    return (await answer(method, path, req)) ?? json(404, { code: 'notFound', message: 'no' })
  })
  return { calls, patches }
}

async function render() {
  const r = await renderInApp(
    <TooltipProvider>
      <NotificationsBell />
    </TooltipProvider>,
  )
  signIn(r.session)
  return r
}

const bell = () => screen.getByRole('button', { name: 'Notifications' })

describe('NotificationsBell (spec 000 §2.2, §2.5)', () => {
  it('puts an unread dot on the bell, and opens the list: author or Anonymous, forum, time, preview, Dismiss and View', async () => {
    serve({
      unread: 1,
      list: [
        note(1, { type: 'mention', isUnread: true, raw: 'Ask [Ada L](0190a000-0000-7000-8000-0000000000aa) about roses' }),
        note(2, { author: null, raw: 'An anonymous comment' }),
      ],
    })
    await render()
    await waitFor(() => expect(within(bell()).getByRole('img', { name: 'Unread notifications' })).toBeInTheDocument())
    await userEvent.click(bell())
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' })
    const items = await within(dialog).findAllByTestId('notification')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByTestId('notification-author')).toHaveTextContent('Ada L')
    expect(items[0]).toHaveAccessibleName('Ada L mentioned you')
    expect(within(items[0]!).getByTestId('notification-forum')).toHaveTextContent('Gardening')
    expect(within(items[0]!).getByRole('time')).toHaveAttribute('dateTime', '2026-11-24T09:00:00.000Z')
    expect(within(items[0]!).getByTestId('notification-preview')).toHaveTextContent('Ask @Ada L about roses')
    expect(within(items[0]!).getByRole('img', { name: 'New' })).toBeInTheDocument()
    expect(within(items[1]!).getByTestId('notification-author')).toHaveTextContent('Anonymous')
    expect(within(items[1]!).queryByRole('img', { name: 'New' })).toBeNull()
    expect(within(items[1]!).getByRole('button', { name: 'Dismiss' })).toBeInTheDocument()
    expect(within(items[1]!).getByRole('button', { name: 'View' })).toBeInTheDocument()
  })

  it('names the Meet Up notifications: an invitation, an open Meet Up, a seat from the waitlist', async () => {
    serve({ list: [note(1, { type: 'meetup-invite' }), note(2, { type: 'meetup-open' }), note(3, { type: 'meetup-seat' })] })
    await render()
    await userEvent.click(bell())
    const items = await screen.findAllByTestId('notification')
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Ada L invited you to a Meet Up',
      'Ada L scheduled a Meet Up',
      'A seat is yours in a Meet Up by Ada L',
    ])
  })

  it('names a community the member was added to, and View opens its page', async () => {
    const joined = note(1, {
      type: 'community-join',
      author: null,
      raw: 'Growers',
      context: { communityId: COMMUNITY, communityName: 'Growers', seriesId: null, seriesName: null },
      postId: null,
    })
    serve({ list: [joined] })
    const r = await render()
    await userEvent.click(bell())
    const item = await screen.findByTestId('notification')
    expect(item).toHaveAttribute('aria-label', 'You were added to Growers')
    expect(within(item).getByTestId('notification-author')).toHaveTextContent('Growers')
    expect(within(item).getByTestId('notification-forum')).toHaveTextContent('Growers')
    await userEvent.click(within(item).getByRole('button', { name: 'View' }))
    await waitFor(() => expect(r.router.state.location.pathname).toBe(`/communities/${COMMUNITY}`))
  })

  it('has no dot when nothing is unread', async () => {
    serve({ list: [note(1)], unread: 0 })
    const r = await render()
    await waitFor(() => expect(r.queryClient.getQueryData(['notifications'])).toBeTruthy())
    expect(within(bell()).queryByRole('img')).toBeNull()
  })

  it('marks the list seen when it closes (notifications.posts.lastSeenAt), and reads it again', async () => {
    const { patches, calls } = serve({ list: [note(1, { isUnread: true })], unread: 1 })
    await render()
    await userEvent.click(bell())
    await screen.findAllByTestId('notification')
    const before = Date.now()
    const reads = calls.filter((c) => c.url.includes('/api/notifications?')).length
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(within(bell()).queryByRole('img')).toBeNull())
    await waitFor(() => expect(patches).toHaveLength(1))
    expect(Object.keys(patches[0]!)).toEqual(['notifications.posts.lastSeenAt'])
    expect(Date.parse(patches[0]!['notifications.posts.lastSeenAt'] as string)).toBeGreaterThanOrEqual(before - 1000)
    expect(screen.queryByRole('dialog')).toBeNull()
    await waitFor(() => expect(calls.filter((c) => c.url.includes('/api/notifications?')).length).toBeGreaterThan(reads))
  })

  it('View stores the id as read and opens the post with the reason', async () => {
    const n = note(1, { type: 'mention' })
    const { patches } = serve({ list: [n], personalization: { 'notifications.posts.read': ['0190a000-0000-7000-8000-00000000beef'] } })
    const r = await render()
    await userEvent.click(bell())
    const item = await screen.findByTestId('notification')
    await userEvent.click(within(item).getByRole('button', { name: 'View' }))
    await waitFor(() => expect(r.router.state.location.pathname).toBe(`/communities/${COMMUNITY}/series/${SERIES}/posts/${n.postId}`))
    expect(r.router.state.location.search).toEqual({ reason: 'mention' })
    await waitFor(() => expect(patches).toHaveLength(1))
    expect(patches[0]!['notifications.posts.read']).toEqual(['0190a000-0000-7000-8000-00000000beef', n.id])
    expect(patches[0]!['notifications.posts.lastSeenAt']).toEqual(expect.any(String))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('View opens the post at the comment it is about', async () => {
    const n = note(2, { replyId: '0190a000-0000-7000-8000-0000000002aa' })
    serve({ list: [n] })
    const r = await render()
    await userEvent.click(bell())
    await userEvent.click(within(await screen.findByTestId('notification')).getByRole('button', { name: 'View' }))
    await waitFor(() => expect(r.router.state.location.pathname).toBe(`/communities/${COMMUNITY}/series/${SERIES}/posts/${n.postId}`))
    expect(r.router.state.location.search).toEqual({ reason: 'comment', reply: n.replyId })
  })

  it('Dismiss hides the notification and stores its id, keeping the newest 500', async () => {
    const old = Array.from({ length: 500 }, (_, i) => `0190a000-0000-7000-8000-1${String(i).padStart(11, '0')}`)
    const { patches } = serve({ list: [note(1), note(2)], personalization: { 'notifications.posts.dismissed': old } })
    await render()
    await userEvent.click(bell())
    const items = await screen.findAllByTestId('notification')
    await userEvent.click(within(items[0]!).getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(1))
    expect(screen.getByTestId('notification-preview')).toHaveTextContent('comment 2')
    const dismissed = patches[0]!['notifications.posts.dismissed'] as string[]
    expect(dismissed).toHaveLength(500)
    expect(dismissed[0]).toBe(old[1])
    expect(dismissed[499]).toBe(note(1).id)
    // The list stays open.
    expect(screen.getByRole('dialog', { name: 'Notifications' })).toBeInTheDocument()
  })

  it('keeps the dismissed ids stored before, even when Dismiss comes before the personalization is read', async () => {
    const earlier = '0190a000-0000-7000-8000-00000000beef'
    let release!: () => void
    const read = new Promise<void>((r) => (release = r))
    const { patches } = serve({ list: [note(1)], personalization: { 'notifications.posts.dismissed': [earlier] }, hold: (m) => (m === 'GET' ? read : Promise.resolve()) })
    await render()
    await userEvent.click(bell())
    await userEvent.click(within(await screen.findByTestId('notification')).getByRole('button', { name: 'Dismiss' }))
    release()
    await waitFor(() => expect(patches).toHaveLength(1))
    expect(patches[0]!['notifications.posts.dismissed']).toEqual([earlier, note(1).id])
  })

  it('hides at once, and keeps both, when two are dismissed before the first is stored', async () => {
    let release!: () => void
    const stored = new Promise<void>((r) => (release = r))
    const { patches } = serve({ list: [note(1), note(2), note(3)], hold: (m) => (m === 'PATCH' ? stored : Promise.resolve()) })
    const r = await render()
    await userEvent.click(bell())
    await screen.findAllByTestId('notification')
    await waitFor(() => expect(r.queryClient.getQueryData(['personalization', ME])).toBeDefined())
    await userEvent.click(within(screen.getAllByTestId('notification')[0]!).getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(2))
    await userEvent.click(within(screen.getAllByTestId('notification')[0]!).getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(1))
    release()
    await waitFor(() => expect(patches).toHaveLength(2))
    expect(patches[1]!['notifications.posts.dismissed']).toEqual([note(1).id, note(2).id])
    expect(screen.getByTestId('notification-preview')).toHaveTextContent('comment 3')
  })

  it('shows 20 at a time and the next 20 when the end scrolls into view', async () => {
    const { calls } = serve({ list: Array.from({ length: 25 }, (_, i) => note(i + 1)) })
    await render()
    await userEvent.click(bell())
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(20))
    const first = new URL(calls.find((c) => c.url.includes('/api/notifications?'))!.url)
    expect(first.searchParams.get('pageSize')).toBe('20')
    scrollToEnd()
    await waitFor(() => expect(screen.getAllByTestId('notification')).toHaveLength(25))
    expect(calls.some((c) => new URL(c.url).searchParams.get('page') === '2')).toBe(true)
  })

  it('shows the watermark when there is nothing', async () => {
    serve({ list: [] })
    await render()
    await userEvent.click(bell())
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No notifications yet')
  })

  it('offers a retry when the list cannot be read', async () => {
    let fail = true
    serve({ list: [note(1)], failNotifications: () => fail })
    await render()
    await userEvent.click(bell())
    const error = await screen.findByTestId('error-fallback', {}, { timeout: 8000 })
    expect(error).toHaveTextContent('The notifications could not be loaded.')
    fail = false
    await userEvent.click(within(error).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByTestId('notification')).toBeInTheDocument()
  })

  it('opens as a full-screen dialog on small screens', async () => {
    screenSize(false)
    serve({ list: [note(1)] })
    await render()
    await userEvent.click(bell())
    const dialog = await screen.findByRole('dialog', { name: 'Notifications' })
    expect(dialog).toHaveClass('h-dvh')
    expect(await within(dialog).findByTestId('notification')).toBeInTheDocument()
  })
})
