import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { TooltipProvider } from '@/components/ui/tooltip'
import { json, personalizationServer, renderInApp, stubFetch } from '@/test/utils'
import type { Meeting } from '../api/types'
import { ME, signIn } from '@/test/factories'
import { meeting } from '../test/fixtures'
import type { ForumAccess } from './meetup-summary'
import { MeetupReminder } from './reminder-alert'
import { UpcomingMeetupsButton } from './upcoming-button'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

function screenSize(wide: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({ matches: wide, media: query, addEventListener() {}, removeEventListener() {} }))
}
beforeEach(() => screenSize(true))
afterEach(() => vi.unstubAllGlobals())

function serve(list: Meeting[], stored: Record<string, unknown> = {}) {
  const p = personalizationServer(ME, stored)
  const calls = stubFetch(async (method, path, req) => {
    if (path.startsWith('/api/meetings?')) return json(200, { results: list, total: list.length })
    return (await p.answer(method, path, req)) ?? json(404, { code: 'notFound', message: path })
  })
  return { ...p, calls }
}

const button = () => screen.getByRole('button', { name: 'Upcoming Meet Ups' })
const upcoming = (access?: ForumAccess) => (
  <TooltipProvider>
    <UpcomingMeetupsButton access={access} />
  </TooltipProvider>
)

describe('UpcomingMeetupsButton (spec 000 §2.2)', () => {
  it('dots a Meet Up scheduled since the list was seen, lists them in a popover, and marks them seen on closing', async () => {
    const { patches } = serve([meeting({ createdOn: '2026-11-24T10:00:00.000Z' }), meeting({ roomId: 'r2', name: 'Seed swap', createdOn: '2026-11-01T10:00:00.000Z' })], {
      'notifications.meetups.lastSeenAt': '2026-11-20T00:00:00.000Z',
    })
    const r = await renderInApp(upcoming())
    signIn(r.session)
    await waitFor(() => expect(within(button()).getByRole('img', { name: 'New Meet Ups' })).toBeInTheDocument())
    await userEvent.click(button())
    const list = await screen.findByRole('list', { name: 'Upcoming Meet Ups' })
    expect(within(list).getAllByTestId('meetup-summary').map((x) => within(x).getByRole('link').textContent)).toEqual(['Pruning roses', 'Seed swap'])
    expect(within(list).getAllByTestId('meetup-summary')[0]).toHaveTextContent('Gardening')
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(patches).toHaveLength(1))
    expect(patches[0]).toHaveProperty('notifications.meetups.lastSeenAt')
    await waitFor(() => expect(within(button()).queryByRole('img')).toBeNull())
  })

  it('offers Subscribe instead of Go for a forum the member has no access to (spec 000 §6)', async () => {
    const paid = meeting({ roomId: 'r2', name: 'Paid talk', seriesId: 'paid-forum', context: { communityId: 'c1', seriesId: 'paid-forum', seriesName: 'Paid Forum' } })
    serve([meeting(), paid])
    const r = await renderInApp(upcoming((id) => (id === 'paid-forum' ? false : undefined)))
    signIn(r.session)
    await userEvent.click(button())
    const [open, closed] = await screen.findAllByTestId('meetup-summary')
    expect(within(open!).getByRole('link', { name: 'Pruning roses' })).toHaveAttribute('href', expect.stringContaining('/posts/'))
    expect(within(closed!).queryByRole('link', { name: 'Paid talk' })).toBeNull()
    expect(within(closed!).getByRole('link', { name: 'Subscribe to Paid Forum' })).toHaveAttribute('href', '/communities/c1/series/paid-forum')
  })

  it('opens a full-screen dialog on small screens, and says when nothing is upcoming', async () => {
    screenSize(false)
    serve([])
    const r = await renderInApp(upcoming())
    signIn(r.session)
    await userEvent.click(button())
    const dialog = await screen.findByRole('dialog', { name: 'Upcoming Meet Ups' })
    expect(await within(dialog).findByText('No upcoming Meet Ups.')).toBeInTheDocument()
  })
})

describe('MeetupReminder (spec 002 §4 "Reminders")', () => {
  it('alerts once the reminder time has come, and Dismiss stores the tag in reminders.meeting.dismissed', async () => {
    const soon = meeting({ name: 'Soon' }, 10)
    const { patches } = serve([meeting({ roomId: 'later', tag: 'later' }, 60), soon])
    const r = await renderInApp(<MeetupReminder />)
    signIn(r.session)
    const alert = await screen.findByRole('alert', { name: 'Soon starts soon' })
    expect(alert).toHaveTextContent('The Meet Up in Gardening starts at')
    expect(within(alert).getByRole('link', { name: 'Go to the Meet Up' })).toHaveAttribute('href', expect.stringContaining(`/posts/${soon.postId}`))
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }))
    await waitFor(() => expect(screen.queryByTestId('meetup-reminder')).toBeNull())
    expect(patches).toEqual([{ 'reminders.meeting.dismissed': [soon.tag] }])
  })

  it('offers Subscribe instead of Go for a forum the member has no access to (spec 000 §6)', async () => {
    const soon = meeting({ name: 'Soon' }, 10)
    serve([soon])
    const r = await renderInApp(<MeetupReminder access={() => false} />)
    signIn(r.session)
    const alert = await screen.findByRole('alert', { name: 'Soon starts soon' })
    expect(within(alert).queryByRole('link', { name: 'Go to the Meet Up' })).toBeNull()
    expect(within(alert).getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', `/communities/${soon.context.communityId}/series/${soon.seriesId}`)
  })

  it('says that a Meet Up has started once it has', async () => {
    serve([meeting({ name: 'Now' }, -5)])
    const r = await renderInApp(<MeetupReminder />)
    signIn(r.session)
    const alert = await screen.findByRole('alert', { name: 'Now has started' })
    expect(alert).toHaveTextContent('The Meet Up in Gardening started at')
  })

  it('reminds a super user only of the Meet Ups of their own forums or invitations', async () => {
    const theirs = meeting({ roomId: 'r-mine', tag: 'r-mine', name: 'Mine', seriesId: 'mine' }, 10)
    const invited = meeting({ roomId: 'r-inv', tag: 'r-inv', name: 'Invited', seriesId: 'elsewhere' }, 12)
    const other = meeting({ roomId: 'r-other', tag: 'r-other', name: 'Other', seriesId: 'elsewhere', invitees: {}, creatorId: 'someone' }, 5)
    serve([other, theirs, invited])
    const r = await renderInApp(<MeetupReminder access={(id) => (id === 'mine' ? true : undefined)} />)
    signIn(r.session)
    expect(await screen.findByRole('alert', { name: 'Mine starts soon' })).toBeInTheDocument()
    expect(screen.queryByRole('alert', { name: 'Other starts soon' })).toBeNull()
  })

  it('does not alert on that forum’s page, nor for a dismissed one', async () => {
    const soon = meeting({}, 10)
    const other = meeting({ roomId: 'r2', tag: 'r2', seriesId: 'other-forum', name: 'Elsewhere' }, 10)
    serve([soon, other], { 'reminders.meeting.dismissed': ['r2'] })
    const r = await renderInApp(<MeetupReminder seriesId={soon.seriesId} />)
    signIn(r.session)
    await waitFor(() => expect(r.queryClient.getQueryData(['meetings', 'list', { seriesId: null }])).toBeTruthy())
    await waitFor(() => expect(r.queryClient.getQueryData(['personalization', ME])).toBeTruthy())
    expect(screen.queryByTestId('meetup-reminder')).toBeNull()
  })
})
