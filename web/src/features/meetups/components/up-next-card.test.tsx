import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { ME, SERIES, signIn } from '@/test/factories'
import type { Meeting } from '../api/types'
import { MeetupRoomContext, type MeetupRoomApi } from '../room/context'
import { meeting } from '../test/fixtures'
import { UpNextCard } from './up-next-card'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
afterEach(() => vi.unstubAllGlobals())

const MIN = 60_000

/** at is a Meet Up of the list: roomId id, starting startsIn minutes from now (its end `duration` minutes later). */
const at = (id: string, name: string, startsIn: number, over: Partial<Meeting> = {}) => meeting({ roomId: id, tag: id, postId: `p-${id}`, name, ...over }, startsIn)

/** show renders the forum's card over GET /api/meetings?seriesId= answering list; the room API's join is recorded. */
async function show(list: Meeting[]) {
  stubFetch((_method, path) => (path.startsWith('/api/meetings?') ? json(200, { results: list, total: list.length }) : json(404, { code: 'notFound', message: path })))
  const join = vi.fn(async () => {})
  const roomApi: MeetupRoomApi = { active: null, join, leave: async () => {}, moveTo: async () => {} }
  const r = await renderInApp(
    <MeetupRoomContext.Provider value={roomApi}>
      <UpNextCard series={{ id: SERIES, name: 'Gardening', role: 'member' }} />
    </MeetupRoomContext.Provider>,
  )
  signIn(r.session)
  return { join }
}

const card = () => screen.findByRole('region', { name: /Up next|Live now/ })

describe('UpNextCard (spec 002 §2, §4)', () => {
  it('shows the next Meet Up as up next, without Join before its join window opens', async () => {
    await show([at('r1', 'Pruning roses', 60), at('r2', 'Seed swap', 120)])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Up next' })).toBeInTheDocument()
    expect(within(c).getByTestId('up-next-name')).toHaveTextContent('Pruning roses')
    expect(within(c).queryByRole('button', { name: 'Join' })).toBeNull()
    expect(within(c).getByRole('button', { name: 'View more' })).toBeInTheDocument()
  })

  it('offers Join from 10 minutes before the start, still up next', async () => {
    const { join } = await show([at('r1', 'Pruning roses', 5)])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Up next' })).toBeInTheDocument()
    await userEvent.click(within(c).getByRole('button', { name: 'Join' }))
    expect(join).toHaveBeenCalledWith(expect.objectContaining({ roomId: 'r1' }))
  })

  it('says a Meet Up that has started is live now, with Join', async () => {
    const { join } = await show([at('r1', 'Pruning roses', -5), at('r2', 'Seed swap', 120)])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Live now' })).toBeInTheDocument()
    expect(within(c).getByTestId('up-next-name')).toHaveTextContent('Pruning roses')
    await userEvent.click(within(c).getByRole('button', { name: 'Join' }))
    expect(join).toHaveBeenCalledWith(expect.objectContaining({ roomId: 'r1' }))
  })

  it('offers no Join to one who may not join a live Meet Up (an open one they have not registered for)', async () => {
    await show([at('r1', 'Open day', -5, { open: true, seatCount: 20, seatsLeft: 20, invitees: {}, roles: {}, myRole: null })])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Live now' })).toBeInTheDocument()
    expect(within(c).queryByRole('button', { name: 'Join' })).toBeNull()
  })

  it('never shows an ended Meet Up as up next: the following one instead, or no card', async () => {
    await show([at('r1', 'Pruning roses', -5, { ended: true, endedOn: new Date().toISOString() }), at('r2', 'Seed swap', 120)])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Up next' })).toBeInTheDocument()
    expect(within(c).getByTestId('up-next-name')).toHaveTextContent('Seed swap')
    // One left: View more lists two or more.
    expect(within(c).queryByRole('button', { name: 'View more' })).toBeNull()
  })

  it('moves on when the live Meet Up’s end comes while the page is open', async () => {
    const start = new Date(Date.now() - 14 * MIN)
    // Ends in a second and a half.
    const ending = at('r1', 'Pruning roses', 0, { startTime: start.toISOString(), endTime: new Date(Date.now() + 1500).toISOString(), duration: 15 })
    await show([ending, at('r2', 'Seed swap', 120)])
    const c = await card()
    expect(within(c).getByRole('heading', { name: 'Live now' })).toBeInTheDocument()
    await waitFor(() => expect(within(c).getByTestId('up-next-name')).toHaveTextContent('Seed swap'), { timeout: 4000 })
    expect(within(c).getByRole('heading', { name: 'Up next' })).toBeInTheDocument()
  })

  it('shows nothing when only ended Meet Ups are listed', async () => {
    stubFetch(() => json(200, { results: [at('r1', 'Pruning roses', -40, { ended: true })], total: 1 }))
    const r = await renderInApp(<UpNextCard series={{ id: SERIES, name: 'Gardening', role: 'member' }} />)
    signIn(r.session, { id: ME })
    // The list is read, and the card renders from it: nothing.
    await waitFor(() => expect(r.queryClient.getQueryData(['meetings', 'list', { seriesId: SERIES }])).toBeDefined())
    expect(screen.queryByTestId('up-next')).toBeNull()
  })
})
