import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { Toaster } from '@/components/ui/toast'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Meeting } from '../api/types'
import { MeetupRoomContext, type MeetupRoomApi } from '../room/context'
import { ME, SERIES, signIn } from '@/test/factories'
import { ADA, BO, meeting, PEOPLE, POST, ROOM } from '../test/fixtures'
import { MeetupPost } from './meetup-post'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
afterEach(() => vi.unstubAllGlobals())

/** serve answers the Meet Up calls as the server would, changing m. */
function serve(m: Meeting) {
  let current = m
  const later = () => new Date(Date.parse(current.updatedOn) + 1000).toISOString()
  const calls = stubFetch(async (method, path, req) => {
    if (path.startsWith(`/api/series/${SERIES}/members`)) return json(200, { results: PEOPLE, total: 3 })
    if (path === `/api/meetings/${ROOM}/registration`) {
      const invitees = { ...current.invitees }
      if (method === 'PUT') invitees[ME] = 'registered'
      else delete invitees[ME]
      current = { ...current, invitees, seatsLeft: (current.seatsLeft ?? 0) + (method === 'PUT' ? -1 : 1), updatedOn: later() }
      return json(200, current)
    }
    if (method === 'PUT' && path === `/api/threads/${POST}/meeting/response`) {
      const { response } = (await req.json()) as { response: 'yes' | 'no' }
      current = { ...current, invitees: { ...current.invitees, [ME]: response }, updatedOn: later() }
      return json(200, current)
    }
    if (path === `/api/meetings/${ROOM}/permissions`) return json(200, {})
    if (method === 'DELETE' && path === `/api/threads/${POST}`) return json(500, { code: 'internalError', message: 'no' })
    if (method === 'PATCH' && path === `/api/threads/${POST}/meeting/minutes`) {
      const { content } = (await req.json()) as { content: string }
      current = { ...current, minutes: { state: 'completed', content, updatedOn: later() }, updatedOn: later() }
      return json(200, current)
    }
    if (method === 'DELETE' && path === `/api/threads/${POST}/meeting/minutes`) return new Response(null, { status: 204 })
    return json(404, { code: 'notFound', message: path })
  })
  return calls
}

const noRoom: MeetupRoomApi = { active: null, join: vi.fn(async () => {}), leave: async () => {}, moveTo: async () => {} }

async function show(m: Meeting, room: MeetupRoomApi = noRoom) {
  const r = await renderInApp(
    <MeetupRoomContext.Provider value={room}>
      <MeetupPost meeting={m} series={{ id: SERIES, name: 'Gardening', role: 'member' }} />
      <Toaster />
    </MeetupRoomContext.Provider>,
  )
  signIn(r.session)
  return screen.findByRole('region', { name: m.name })
}

describe('MeetupPost (spec 001 §4 "Post kind", spec 002 §4)', () => {
  it('shows an open Meet Up: name, time frame, agenda, seats left; Register takes a seat and offers Unregister', async () => {
    const m = meeting({ open: true, seatCount: 10, seatsLeft: 5, invitees: {}, roles: {} })
    const calls = serve(m)
    const card = await show(m)
    expect(within(card).getByTestId('meetup-time')).toHaveTextContent(/– \d+:\d\d (AM|PM) (UTC|GMT[+-]?\d*|[A-Z]{2,5})$/)
    expect(within(card).getByTestId('meetup-agenda')).toHaveTextContent('When and how to prune.')
    expect(within(card).getByTestId('seats-left')).toHaveTextContent('5 spots left')
    expect(within(card).queryByTestId('private-chip')).toBeNull()
    expect(within(card).getByRole('link', { name: 'Add to calendar' })).toHaveAttribute('href', `/api/meetings/${ROOM}/calendar.ics`)
    await userEvent.click(within(card).getByRole('button', { name: 'Register' }))
    expect(await within(card).findByRole('button', { name: 'Unregister' })).toBeInTheDocument()
    expect(within(card).getByTestId('seats-left')).toHaveTextContent('4 spots left')
    expect(calls.some((c) => c.method === 'PUT' && c.url.endsWith(`/api/meetings/${ROOM}/registration`))).toBe(true)
  })

  it('says "1 spot left" and "There are no open spots"', async () => {
    serve(meeting())
    const one = await show(meeting({ open: true, seatCount: 3, seatsLeft: 1, invitees: {}, roles: {} }))
    expect(within(one).getByTestId('seats-left')).toHaveTextContent('1 spot left')
    const none = meeting({ roomId: 'r2', name: 'Full one', open: true, seatCount: 3, seatsLeft: 0, invitees: {}, roles: {} })
    const full = await show(none)
    expect(within(full).getByTestId('seats-left')).toHaveTextContent('There are no open spots')
  })

  it('shows a waitlisted member their place and Leave waitlist', async () => {
    const m = meeting({ open: true, seatCount: 2, seatsLeft: 0, invitees: { [BO]: 'waitlisted', [ME]: 'waitlisted' }, roles: {}, waitlist: [BO, ME] })
    serve(m)
    const card = await show(m)
    expect(within(card).getByTestId('waitlist-position')).toHaveTextContent('You are number 2 on the waitlist')
    await userEvent.click(within(card).getByRole('button', { name: 'Leave waitlist' }))
    expect(await within(card).findByRole('button', { name: 'Register' })).toBeInTheDocument()
  })

  it('lets an invitee Accept a private Meet Up, then shows no registration buttons; the Private chip explains itself', async () => {
    const m = meeting()
    serve(m)
    const card = await show(m)
    expect(within(card).getByTestId('private-chip')).toHaveTextContent('Private')
    expect(within(card).queryByTestId('seats-left')).toBeNull()
    await userEvent.click(within(card).getByRole('button', { name: 'About private Meet Ups' }))
    expect(await screen.findByText('Only invited members can see the AI notes of this Meet Up and join it.')).toBeInTheDocument()
    await userEvent.keyboard('{Escape}')
    await userEvent.click(within(card).getByRole('button', { name: 'Accept' }))
    await waitFor(() => expect(within(card).queryByRole('button', { name: 'Accept' })).toBeNull())
    expect(within(card).queryByRole('button', { name: 'Register' })).toBeNull()
    expect(within(card).getByRole('button', { name: 'Join' })).toBeInTheDocument()
  })

  it('gives the creator Edit and Delete but no registration; a failed delete says feedPostMeetupDeleting', async () => {
    const m = meeting({ creatorId: ME, invitees: { [ADA]: 'yes' }, roles: { [ADA]: 'moderator' }, myRole: 'host' })
    serve(m)
    const card = await show(m)
    expect(within(card).queryByRole('button', { name: 'Accept' })).toBeNull()
    expect(within(card).getByRole('button', { name: 'Edit Meet Up' })).toBeInTheDocument()
    await userEvent.click(within(card).getByRole('button', { name: 'Delete Meet Up' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete this Meet Up?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete Meet Up' }))
    expect(await screen.findByText('The Meet Up could not be deleted.')).toBeInTheDocument()
  })

  it('joins within the grace window only: before it, "not time yet" with the start and the 10 minutes', async () => {
    const join = vi.fn(async () => {})
    const m = meeting({ invitees: { [ME]: 'yes' } }, 60)
    serve(m)
    const card = await show(m, { ...noRoom, join })
    await userEvent.click(within(card).getByRole('button', { name: 'Join' }))
    const dialog = await screen.findByRole('dialog', { name: 'It is not time yet' })
    expect(dialog).toHaveTextContent(/starts at .+\. You can join from 10 minutes before it starts\./)
    expect(join).not.toHaveBeenCalled()
    await userEvent.click(within(dialog).getByRole('button', { name: 'OK' }))
    const soon = meeting({ roomId: 'soon', name: 'Soon', invitees: { [ME]: 'yes' } }, 5)
    const card2 = await show(soon, { ...noRoom, join })
    await userEvent.click(within(card2).getByRole('button', { name: 'Join' }))
    expect(join).toHaveBeenCalledWith(soon)
  })

  it('says "You must leave your current Meet Up to join a new one", and "In progress" for the current one', async () => {
    const current = meeting({ roomId: 'other', name: 'Other' }, 0)
    const active = { ...noRoom, active: { meeting: current, room: {} as never, roomName: 'other', state: 'connected' as const } }
    const m = meeting({ invitees: { [ME]: 'yes' } }, 5)
    serve(m)
    const card = await show(m, active)
    await userEvent.click(within(card).getByRole('button', { name: 'Join' }))
    expect(await screen.findByRole('dialog', { name: 'You are already in a Meet Up' })).toHaveTextContent('You must leave your current Meet Up to join a new one')
    await userEvent.keyboard('{Escape}')
    const inIt = await show(current, active)
    expect(within(inIt).getByTestId('in-progress')).toHaveTextContent('In progress')
    expect(within(inIt).queryByRole('button', { name: 'Join' })).toBeNull()
  })

  it('shows an ended Meet Up as ended, or ended and transcribing', async () => {
    serve(meeting())
    const ended = await show(meeting({ ended: true }))
    expect(within(ended).getByTestId('meetup-ended')).toHaveTextContent('Ended')
    expect(within(ended).queryByRole('button', { name: 'Join' })).toBeNull()
    const busy = await show(meeting({ roomId: 'r2', name: 'Second', ended: true, minutes: { state: 'compiling', content: null, updatedOn: null } }))
    expect(within(busy).getByTestId('meetup-ended')).toHaveTextContent('Ended and transcribing')
  })

  it('lets a moderator edit the AI notes in a dialog and delete them after "This action cannot be undone."', async () => {
    const m = meeting({ ended: true, roles: { [ME]: 'moderator' }, minutes: { state: 'completed', content: 'We pruned.', updatedOn: null } })
    const calls = serve(m)
    const card = await show(m)
    expect(within(card).getByTestId('minutes-content')).toHaveTextContent('We pruned.')
    await userEvent.click(within(card).getByRole('button', { name: 'Edit AI notes' }))
    const edit = await screen.findByRole('dialog', { name: 'Edit the AI notes' })
    await userEvent.clear(within(edit).getByLabelText('AI notes'))
    await userEvent.type(within(edit).getByLabelText('AI notes'), 'We pruned roses.')
    await userEvent.click(within(edit).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(within(card).getByTestId('minutes-content')).toHaveTextContent('We pruned roses.'))
    await userEvent.click(within(card).getByRole('button', { name: 'Delete AI notes' }))
    const confirm = await screen.findByRole('dialog', { name: 'Delete the AI notes?' })
    expect(confirm).toHaveTextContent('This action cannot be undone.')
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete AI notes' }))
    await waitFor(() => expect(within(card).queryByTestId('minutes')).toBeNull())
    expect(calls.some((c) => c.method === 'DELETE' && c.url.endsWith(`/api/threads/${POST}/meeting/minutes`))).toBe(true)
  })

  it('lists the invitees with the host, roles and answers', async () => {
    const m = meeting({ invitees: { [ME]: 'yes', [BO]: null }, roles: { [ME]: 'member', [BO]: 'moderator' } })
    serve(m)
    const card = await show(m)
    await userEvent.click(within(card).getByRole('button', { name: 'Invitees' }))
    const dialog = await screen.findByRole('dialog', { name: 'Invitees of Pruning roses' })
    await waitFor(() => expect(within(dialog).getAllByTestId('invitee')[0]).toHaveTextContent('Ada LovelaceHost'))
    const rows = within(dialog).getAllByTestId('invitee')
    expect(rows[1]).toHaveTextContent('Mia MeGoing')
    expect(rows[2]).toHaveTextContent('Bo BrownModeratorNo answer')
  })
})
