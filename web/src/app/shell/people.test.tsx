import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import type { Schemas } from '@/api/client'
import { TooltipProvider } from '@/components/ui/tooltip'
import { forumMember, signIn } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { AuthorAvatar } from '@/features/feed/components/author'
import { RichText } from '@/features/feed/components/rich-text'
import { ProfileDialogHost } from '@/features/profile/components/profile-dialog'
import { TeamTab } from '@/features/profile/components/team-tab'
import { applyUserUpdated } from './people-live'

afterEach(() => vi.unstubAllGlobals())
const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })

const SERIES = '0190a000-0000-7000-8000-0000000000a1'
const OTHER_SERIES = '0190a000-0000-7000-8000-0000000000a2'
const ADA = '0190a000-0000-7000-8000-000000000011'
const BOB = '0190a000-0000-7000-8000-000000000012'

const profile = (over: Partial<Schemas['PersonProfile']> = {}): Schemas['PersonProfile'] => ({
  userId: ADA,
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.test',
  avatar: null,
  jobTitle: 'Analyst',
  company: 'Engines Ltd',
  bio: 'Notes on the engine.',
  interestTags: ['math', 'poetry'],
  location: 'Roadmaps',
  expertInSeries: [SERIES],
  status: 'online',
  ...over,
})

let n = 0
const member = (userId: string | null, first: string, role: Schemas['ForumAssignableRole'], isExpert = role.endsWith('expert')) =>
  forumMember(first, {
    id: `0190a000-0000-7000-8000-0000000001${String(++n).padStart(2, '0')}`,
    userId,
    jobTitle: 'Engineer',
    company: 'Acme',
    isExpert,
    role,
    status: userId ? 'active' : 'invited',
  })

/** serve answers the profile and team reads; profiles can change between reads. */
function serve(profiles: Record<string, Schemas['PersonProfile']>, team: Schemas['ForumMember'][] = []) {
  return stubFetch((_m, path) => {
    const p = /^\/api\/users\/([^/]+)\/profile$/.exec(path)
    if (p) return profiles[p[1]!] ? json(200, profiles[p[1]!]) : json(404, { code: 'notFound', message: 'not found' })
    if (path.startsWith(`/api/series/${SERIES}/admin-and-experts`)) {
      const size = Number(new URL(path, 'http://x').searchParams.get('pageSize'))
      return json(200, { results: team.slice(0, size), total: team.length })
    }
    return json(404, { code: 'notFound', message: path })
  })
}

const host = (ui: React.ReactNode, place = { seriesId: SERIES, home: false }) => (
  <TooltipProvider>
    <ProfileDialogHost place={place}>{ui}</ProfileDialogHost>
  </TooltipProvider>
)

describe('the profile dialog (spec 000 §2.4, 002 §2)', () => {
  it('opens from a mention chip with the name, work, e-mail, location, bio, tags and the star of this forum’s expert', async () => {
    serve({ [ADA]: profile() })
    await renderInApp(host(<RichText raw={`Thanks [Ada Lovelace](${ADA}) for the notes`} />))
    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Ada Lovelace' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument()
    expect(within(dialog).getByText('Analyst at Engines Ltd')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'ada@example.test' })).toHaveAttribute('href', 'mailto:ada@example.test')
    expect(within(dialog).getByTestId('profile-location')).toHaveTextContent('Roadmaps')
    expect(within(dialog).getByText('Notes on the engine.')).toBeInTheDocument()
    expect(within(within(dialog).getByRole('list', { name: 'Interests' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['math', 'poetry'])
    expect(within(dialog).getByRole('img', { name: 'Expert in this forum' })).toBeInTheDocument()
  })

  it('offers "Message" on a peer’s profile, which closes the dialog and opens the chat with them; not on one’s own', async () => {
    serve({ [ADA]: profile(), [BOB]: profile({ userId: BOB, firstName: 'Bob', lastName: 'Builder' }) })
    const onMessage = vi.fn()
    const r = await renderInApp(
      <TooltipProvider>
        <ProfileDialogHost place={{ seriesId: SERIES, home: false }} onMessage={onMessage}>
          <RichText raw={`[Ada Lovelace](${ADA}) and [Bob Builder](${BOB})`} />
        </ProfileDialogHost>
      </TooltipProvider>,
    )
    signIn(r.session, { id: BOB, firstName: 'Bob', lastName: 'Builder', email: 'bob@example.test' })
    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Bob Builder' }))
    let dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByRole('heading', { name: 'Bob Builder' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('button', { name: 'Message' })).toBeNull()
    await userEvent.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())

    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Ada Lovelace' }))
    dialog = await screen.findByRole('dialog')
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Message' }))
    expect(onMessage).toHaveBeenCalledWith(expect.objectContaining({ userId: ADA, firstName: 'Ada', lastName: 'Lovelace' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('opens from a post author’s avatar; no star in a forum they are no expert of, and no location on the home page', async () => {
    serve({ [BOB]: profile({ userId: BOB, firstName: 'Bob', lastName: 'Builder', expertInSeries: [OTHER_SERIES] }) })
    await renderInApp(host(<AuthorAvatar creator={{ userId: BOB, firstName: 'Bob', lastName: 'Builder', avatar: null, isExpert: false }} />, { seriesId: SERIES, home: true }))
    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Bob Builder' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByRole('heading', { name: 'Bob Builder' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('img', { name: 'Expert in this forum' })).toBeNull()
    expect(within(dialog).queryByTestId('profile-location')).toBeNull()
  })

  it('says so when the person is not the caller’s peer', async () => {
    serve({})
    await renderInApp(host(<RichText raw={`[Ada Lovelace](${ADA})`} />))
    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Ada Lovelace' }))
    expect(await screen.findByText('This profile is not available to you.')).toBeInTheDocument()
  })

  it('leaves a mention a plain chip where no dialog is mounted', async () => {
    serve({})
    await renderInApp(<RichText raw={`[Ada Lovelace](${ADA})`} />)
    expect(screen.queryByRole('button')).toBeNull()
    expect(screen.getByLabelText('Mention of Ada Lovelace')).toBeInTheDocument()
  })
})

describe('the team tab (spec 002 §2 "Team panel")', () => {
  it('shows cards with stars for experts and the first three admins highlighted; "learn more" opens the profile', async () => {
    const team = [
      member(ADA, 'Ada', 'member-expert'),
      member(BOB, 'Bob', 'admin-expert'),
      member(null, 'Cy', 'admin'),
      member('0190a000-0000-7000-8000-000000000013', 'Di', 'admin'),
      member('0190a000-0000-7000-8000-000000000014', 'Ed', 'admin'),
    ]
    const calls = serve({ [ADA]: profile() }, team)
    await renderInApp(host(<TeamTab seriesId={SERIES} />))
    const cards = await screen.findAllByTestId('team-card')
    expect(cards.map((c) => c.hasAttribute('data-highlighted'))).toEqual([false, true, true, true, false])
    expect(cards.map((c) => within(c).queryByRole('img', { name: 'Expert' }) !== null)).toEqual([true, true, false, false, false])
    // A person without an account yet has no profile to open.
    expect(within(cards[2]!).queryByRole('button')).toBeNull()
    expect(calls.some((r) => r.url.includes('pageSize=100'))).toBe(true)
    await userEvent.click(within(cards[0]!).getByRole('button', { name: 'Learn more about Ada Person' }))
    expect(await within(await screen.findByRole('dialog')).findByRole('heading', { name: 'Ada Lovelace' })).toBeInTheDocument()
  })

  it('in full screen has a title and the whole member list in a dialog', async () => {
    const team = [member(ADA, 'Ada', 'admin')]
    const calls = serve({}, team)
    await renderInApp(host(<TeamTab seriesId={SERIES} fullscreen />))
    expect(await screen.findByRole('heading', { name: 'Team' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Member list (1)' }))
    const dialog = await screen.findByTestId('team-list-dialog')
    expect(await within(dialog).findAllByTestId('team-card')).toHaveLength(1)
    expect(calls.some((r) => r.url.includes('pageSize=9999'))).toBe(true)
  })
})

describe('user.updated (spec 000 §7)', () => {
  it('reads the person’s open profile and team cards again, and leaves others alone', async () => {
    const profiles = { [ADA]: profile() }
    serve(profiles, [member(ADA, 'Ada', 'admin')])
    const { queryClient } = await renderInApp(host(<RichText raw={`[Ada Lovelace](${ADA})`} />))
    await userEvent.click(screen.getByRole('button', { name: 'Open the profile of Ada Lovelace' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByText('Notes on the engine.')).toBeInTheDocument()
    queryClient.setQueryData(['series', SERIES, 'admin-and-experts', 100], { results: [member(ADA, 'Ada', 'admin')], total: 1 })
    queryClient.setQueryData(['series', SERIES, 'members', 'someone else'], { results: [member(BOB, 'Bob', 'admin')], total: 1 })

    profiles[ADA] = profile({ bio: 'A new bio.' })
    const event = { type: 'api:messages:broadcast' as const, contextKey: `user:${ADA}`, event: 'user.updated', data: { payload: { id: ADA, firstName: 'Ada' } } }
    expect(applyUserUpdated(queryClient, event)).toBe(true)
    expect(await within(dialog).findByText('A new bio.')).toBeInTheDocument()
    const invalidated = (key: unknown[]) => queryClient.getQueryCache().find({ queryKey: key, exact: true })?.state.isInvalidated
    expect(invalidated(['series', SERIES, 'admin-and-experts', 100])).toBe(true)
    expect(invalidated(['series', SERIES, 'members', 'someone else'])).toBe(false)
    expect(applyUserUpdated(queryClient, { ...event, event: 'thread.created' })).toBe(false)
    await waitFor(() => expect(within(dialog).getByText('A new bio.')).toBeInTheDocument())
  })
})
