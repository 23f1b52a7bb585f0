import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { json, renderInApp, stubFetch, stubLayout } from '@/test/utils'
import { ME, signIn } from '@/test/factories'
import { setSheetOpen } from './right-panel'
import { TopBar } from './top-bar'

beforeEach(() => stubLayout())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  // The sheet's state outlives a page's frame; each test starts closed.
  act(() => setSheetOpen(false))
})
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const ADA = '0190a000-0000-7000-8000-0000000000aa'
const ada = { id: ADA, userId: ADA, name: 'Ada L', firstName: 'Ada', lastName: 'L', avatar: null, company: '', jobTitle: '', interestTags: [], tags: [], status: 'online', presence: null, lastMessageOn: null }

function serve(hasUnread: boolean) {
  stubFetch((_m, path) => {
    if (path.startsWith('/api/channels/private?'))
      return json(200, {
        results: [{ id: 'c1', memberIds: [ME, ADA], peer: ada, hasUnread, latestThread: { id: 'm1', creatorId: ADA, raw: 'hi', createdOn: '2026-11-24T09:00:00.000Z' }, lastSeenOn: null, lastActivityOn: null }],
        total: 1,
      })
    if (path.startsWith('/api/peers')) return json(200, { results: [ada], total: 1 })
    if (path.startsWith(`/api/users/${ME}/personalization`)) return json(200, {})
    return json(404, { code: 'notFound', message: 'no' })
  })
}

// A small screen (or a wide one): the panel is the top bar's sheet on small ones.
function screenWidth(wide = false) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: wide, media: query, addEventListener() {}, removeEventListener() {} }))
}
const narrow = () => screenWidth(false)

async function render({ beside = true } = {}) {
  const r = await renderInApp(
    <TooltipProvider>
      <TopBar panel={{ beside, forumSelected: false, forumAdmin: false }} />
    </TooltipProvider>,
  )
  signIn(r.session)
  return r
}

describe('TopBar chat (spec 002 §2, §4)', () => {
  it('puts an unread dot on the chat button, and the button opens the chat; no panel menu outside a forum', async () => {
    narrow()
    serve(true)
    await render()
    const button = screen.getByRole('button', { name: 'Chat' })
    await waitFor(() => expect(within(button).getByRole('img', { name: 'Unread messages' })).toBeInTheDocument())
    expect(screen.queryByRole('button', { name: 'Forum panels' })).toBeNull()
    await userEvent.click(button)
    const sheet = await screen.findByRole('dialog')
    expect(within(sheet).getByRole('tab', { name: 'Chat', selected: true })).toBeInTheDocument()
    expect(await within(sheet).findByText('Ada L')).toBeInTheDocument()
  })

  it('shows the new-message bubble while the panel is closed, and View opens the chat', async () => {
    narrow()
    serve(true)
    await render()
    const bubble = await screen.findByTestId('new-message-bubble')
    await userEvent.click(within(bubble).getByRole('button', { name: 'View' }))
    expect(await screen.findByRole('dialog')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByTestId('new-message-bubble')).toBeNull())
  })

  it('on a wide community page, which has no side panel, View opens the chat in the sheet', async () => {
    screenWidth(true)
    serve(true)
    await render({ beside: false })
    const bubble = await screen.findByTestId('new-message-bubble')
    await userEvent.click(within(bubble).getByRole('button', { name: 'View' }))
    const sheet = await screen.findByRole('dialog')
    expect(within(sheet).getByRole('tab', { name: 'Chat', selected: true })).toBeInTheDocument()
  })

  it('has no unread dot when every chat is seen', async () => {
    narrow()
    serve(false)
    const r = await render()
    await waitFor(() => expect(r.queryClient.getQueryData(['chat', 'channels'])).toBeTruthy())
    expect(within(screen.getByRole('button', { name: 'Chat' })).queryByRole('img')).toBeNull()
  })
})

describe('TopBar notifications (spec 000 §2.2)', () => {
  it('has the bell, with its dot when a notification is unread', async () => {
    narrow()
    const calls = stubFetch((_m, path) => (path.startsWith('/api/notifications?') ? json(200, { results: [], total: 3, unread: 2 }) : json(404, { code: 'notFound', message: 'no' })))
    await render()
    const button = screen.getByRole('button', { name: 'Notifications' })
    await waitFor(() => expect(within(button).getByRole('img', { name: 'Unread notifications' })).toBeInTheDocument())
    expect(calls.some((c) => c.url.includes('/api/notifications?page=1&pageSize=20'))).toBe(true)
  })
})
