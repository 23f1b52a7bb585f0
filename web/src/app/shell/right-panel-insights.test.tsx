import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { forum as aForum, thread } from '@/test/factories'
import { json, renderInApp } from '@/test/utils'
import { ADMIN_CHANNEL, COMMUNITY, SERIES, serveInsights, sizeCharts } from '@/features/insights/test/fixtures'
import { RightPanel, setPanel, type PanelContext } from './right-panel'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}
sizeCharts()

const forum = (role: 'admin' | 'member') =>
  aForum({
    id: SERIES,
    name: 'Roadmaps',
    description: 'd',
    exclusivity: 'open',
    context: { communityId: COMMUNITY },
    role,
    mainChannelId: '0190a000-0000-7000-8000-0000000000c1',
    adminChannelId: role === 'admin' ? ADMIN_CHANNEL : null,
  })

const post = thread('0190a000-0000-7000-8000-0000000000d1', {
  channelId: ADMIN_CHANNEL,
  seriesId: SERIES,
  creator: { userId: '0190a000-0000-7000-8000-000000000002', firstName: 'Olga', lastName: 'Other', avatar: null, isExpert: false },
  raw: 'Admins: plan the next Meet Up',
  canManage: true,
  createdOn: '2026-03-20T09:00:00.000Z',
  updatedOn: '2026-03-20T09:00:00.000Z',
})

function serve(role: 'admin' | 'member') {
  return serveInsights((_m, path) => {
    if (path === `/api/series/${SERIES}`) return json(200, forum(role))
    if (path.startsWith(`/api/channels/${ADMIN_CHANNEL}/threads`)) return json(200, { results: path.includes('createdBefore') ? [] : [post] })
    return undefined
  })
}

const context = (forumAdmin: boolean): PanelContext => ({
  beside: true,
  forumSelected: true,
  forumAdmin,
  forum: { seriesId: SERIES, communityId: COMMUNITY },
})

const render = (ctx: PanelContext) =>
  renderInApp(
    <TooltipProvider>
      <RightPanel context={ctx} />
    </TooltipProvider>,
  )

describe('RightPanel and Insights', () => {
  it('gives a plain member of the forum the chat and Team but no Insights and no summary, even with the tab stored', async () => {
    const calls = serve('member')
    setPanel({ expanded: true, tab: 'insights' })
    await render(context(false))
    expect(await screen.findByRole('tab', { name: 'Chat', selected: true })).toBeInTheDocument()
    expect(screen.getByRole('tab', { name: 'Team' })).toBeInTheDocument()
    expect(screen.queryByRole('tab', { name: 'Insights' })).toBeNull()
    expect(screen.queryByTestId('insights-summary')).toBeNull()
    expect(calls.some((r) => r.url.includes('/api/insights/'))).toBe(false)
    setPanel({ expanded: false })
  })

  it('shows a forum admin the docked summary, then the Insights tab with the admin channel’s posts and composer, full screen on demand', async () => {
    serve('admin')
    await render(context(true))
    const summary = screen.getByTestId('insights-summary')
    await waitFor(() => expect(within(summary).getByTestId('summary-inquiries')).toHaveTextContent('17'))
    await userEvent.click(screen.getByRole('button', { name: 'Insights' }))
    expect(await screen.findByRole('tab', { name: 'Insights', selected: true })).toBeInTheDocument()
    // The tab and its charts load on first opening, slowly on a busy machine.
    const feed = await screen.findByTestId('insights-admin-feed', {}, { timeout: 10_000 })
    expect(await within(feed).findByText('Admins: plan the next Meet Up')).toBeInTheDocument()
    expect(within(feed).getByRole('region', { name: 'Admin channel' })).toBeInTheDocument()
    expect(within(feed).getByRole('button', { name: 'Post' })).toBeInTheDocument()
    const full = screen.getByRole('button', { name: 'Full screen' })
    expect(full).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(full)
    expect(screen.getByTestId('right-panel')).toHaveAttribute('data-state', 'fullscreen')
    expect(screen.getByRole('button', { name: 'Full screen' })).toHaveAttribute('aria-pressed', 'true')
  }, 15_000)
})
