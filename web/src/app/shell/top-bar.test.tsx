import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { json, personalizationServer, renderInApp, stubFetch, stubLayout } from '@/test/utils'
import { community, ME, myForum, signIn } from '@/test/factories'
import { meeting } from '@/features/meetups/test/fixtures'
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
    // Not inside the header, whose backdrop filter would pin it over the bar.
    expect(screen.getByRole('banner')).not.toContainElement(bubble)
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

// A phone: the forum's title switches forums, the bell, the chat and the
// panel menu stay, and the rest is in the menu, each entry by name.
const F1 = '0190a000-0000-7000-8000-0000000000f1'
const F2 = '0190a000-0000-7000-8000-0000000000f2'
const F3 = '0190a000-0000-7000-8000-0000000000f3'

function servePhone({ manages = false, newMeetup = false } = {}) {
  const p = personalizationServer(ME, newMeetup ? { 'notifications.meetups.lastSeenAt': '2026-11-20T00:00:00.000Z' } : { 'notifications.meetups.lastSeenAt': '2099-01-01T00:00:00.000Z' })
  return stubFetch(async (method, path, req) => {
    if (path.startsWith('/api/communities?'))
      return json(200, {
        results: [community('c1', 'Builders', [myForum(F1, 'Design Forum'), myForum(F2, 'Build Forum')]), community('c2', 'Gardeners', [myForum(F3, 'Roses and the long afternoons of pruning them')])],
        total: 2,
      })
    if (path.startsWith('/api/meetings?')) return json(200, { results: [meeting({ createdOn: '2026-11-24T10:00:00.000Z' })], total: 1 })
    if (path.startsWith('/api/permissions?type=organization')) return json(200, { whichOnesCanIManage: [], whichOnesCanIAddCommunitiesTo: [] })
    if (path.startsWith('/api/permissions?type=community')) return json(200, { whichOnesCanIManage: manages ? [{ id: 'c1' }] : [] })
    if (path.startsWith('/api/subscriptions')) return json(200, { results: [], total: 0 })
    if (path.startsWith('/api/channels/private?')) return json(200, { results: [], total: 0 })
    if (path.startsWith('/api/notifications?')) return json(200, { results: [], total: 0, unread: 0 })
    return (await p.answer(method, path, req)) ?? json(404, { code: 'notFound', message: path })
  })
}

async function renderForum() {
  const r = await renderInApp(
    <TooltipProvider delayDuration={0}>
      <TopBar panel={{ beside: true, forumSelected: true, forumAdmin: false, forum: { seriesId: F1, communityId: 'c1' } }} />
    </TooltipProvider>,
    { path: `/communities/c1/series/${F1}` },
  )
  signIn(r.session)
  return r
}

describe('TopBar on a phone', () => {
  it('keeps the forum’s title, the bell, the chat, the panel menu and a menu, each icon button named, with a tooltip', async () => {
    narrow()
    servePhone()
    await renderForum()
    const bar = screen.getByRole('banner')
    expect(await within(bar).findByRole('button', { name: 'Switch forum: Design Forum' })).toBeInTheDocument()
    const buttons = within(bar)
      .getAllByRole('button')
      .map((b) => b.getAttribute('aria-label') ?? b.textContent)
    expect(buttons).toEqual(['Switch forum: Design Forum', 'Notifications', 'Chat', 'Forum panels', 'Menu'])
    // What moved into the menu is not in the bar.
    expect(within(bar).queryByRole('link', { name: 'Home' })).toBeNull()
    expect(within(bar).queryByRole('button', { name: 'Upcoming Meet Ups' })).toBeNull()
    expect(within(bar).queryByRole('button', { name: 'Account menu' })).toBeNull()
    // Each names itself in a tooltip as the keyboard reaches it (and on hover).
    act(() => within(bar).getByRole('button', { name: 'Switch forum: Design Forum' }).focus())
    for (const name of ['Notifications', 'Chat', 'Forum panels', 'Menu']) {
      await userEvent.tab()
      expect(within(bar).getByRole('button', { name })).toHaveFocus()
      expect(await screen.findByRole('tooltip', { name })).toBeInTheDocument()
    }
    await userEvent.hover(within(bar).getByRole('button', { name: 'Switch forum: Design Forum' }))
    expect(await screen.findByRole('tooltip', { name: 'Switch forum' })).toBeInTheDocument()
  })

  it('opens the forum switcher: the member’s forums by community, the shown one current; choosing one goes there and closes it', async () => {
    narrow()
    servePhone()
    const { router } = await renderForum()
    await userEvent.click(await screen.findByRole('button', { name: 'Switch forum: Design Forum' }))
    const sheet = await screen.findByRole('dialog', { name: 'Your forums' })
    const builders = within(sheet).getByRole('navigation', { name: 'Forums of Builders' })
    expect(within(builders).getAllByRole('link').map((l) => l.textContent)).toEqual(['Design Forum', 'Build Forum'])
    expect(within(builders).getByRole('link', { name: 'Design Forum' })).toHaveAttribute('aria-current', 'page')
    const gardeners = within(sheet).getByRole('navigation', { name: 'Forums of Gardeners' })
    const roses = within(gardeners).getByRole('link', { name: 'Roses and the long afternoons of pruning them' })
    expect(roses).toHaveAttribute('href', `/communities/c2/series/${F3}`)
    expect(roses).not.toHaveAttribute('aria-current')
    await userEvent.click(roses)
    await waitFor(() => expect(router.state.location.pathname).toBe(`/communities/c2/series/${F3}`))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Your forums' })).toBeNull())
    // Focus is back on the title after the tap, without its tooltip over the page.
    await waitFor(() => expect(screen.getByTestId('forum-switcher')).toHaveFocus())
    expect(screen.queryByRole('tooltip')).toBeNull()
  })

  it('holds Home, the upcoming Meet Ups with their new dot, the Manage entries and the account in the menu', async () => {
    narrow()
    servePhone({ manages: true, newMeetup: true })
    const { router } = await renderForum()
    const menu = screen.getByRole('button', { name: 'Menu' })
    await waitFor(() => expect(within(menu).getByRole('img', { name: 'New Meet Ups' })).toBeInTheDocument())
    await userEvent.click(menu)
    const items = await screen.findAllByRole('menuitem')
    expect(items.map((i) => i.textContent)).toEqual(['Home', 'Upcoming Meet Ups', 'Communities', 'Profile', 'Sign out'])
    expect(screen.getAllByRole('menuitemradio').map((i) => i.textContent)).toEqual(['Light', 'Dark', 'System'])
    await userEvent.click(screen.getByRole('menuitem', { name: /Upcoming Meet Ups/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Upcoming Meet Ups' })
    expect(await within(dialog).findByRole('link', { name: 'Pruning roses' })).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Upcoming Meet Ups' })).toBeNull())
    // Seen: the dot goes from the menu's button.
    await waitFor(() => expect(within(screen.getByRole('button', { name: 'Menu' })).queryByRole('img')).toBeNull())
    await userEvent.click(screen.getByRole('button', { name: 'Menu' }))
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Home' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'))
  })

  it('shows the wide bar’s Home, upcoming Meet Ups and avatar menu on wide screens, and no switcher beside the side nav', async () => {
    screenWidth(true)
    servePhone()
    await renderForum()
    const bar = screen.getByRole('banner')
    expect(within(bar).getByRole('link', { name: 'Home' })).toBeInTheDocument()
    expect(within(bar).getByRole('button', { name: 'Upcoming Meet Ups' })).toBeInTheDocument()
    expect(within(bar).getByRole('button', { name: 'Account menu' })).toBeInTheDocument()
    expect(within(bar).queryByRole('button', { name: 'Menu' })).toBeNull()
    expect(within(bar).queryByTestId('forum-switcher')).toBeNull()
  })
})
