import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { MeetingForm } from '../api/types'
import { ME, SERIES, signIn } from '@/test/factories'
import { ADA, BO, meeting, PEOPLE, POST, ROOM } from '../test/fixtures'
import { MeetupFormDialog } from './meetup-form-dialog'
import { ScheduleMeetupButton } from './schedule-button'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
afterEach(() => vi.unstubAllGlobals())
// jsdom has no ResizeObserver, which Radix's switch measures itself with.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/** serve answers the form's calls; refuse, when given, answers the POST or PUT of the form instead. */
function serve(refuse?: () => Response) {
  const sent: { method: string; path: string; body: MeetingForm }[] = []
  stubFetch(async (method, path, req) => {
    if (path.startsWith(`/api/series/${SERIES}/members`)) return json(200, { results: PEOPLE, total: 42 })
    if (method === 'POST' && path === `/api/series/${SERIES}/meetings`) {
      sent.push({ method, path, body: (await req.json()) as MeetingForm })
      return refuse?.() ?? json(201, { id: POST, channelId: 'ch', meeting: meeting() })
    }
    if (method === 'PUT' && path === `/api/meetings/${ROOM}`) {
      const body = (await req.json()) as MeetingForm
      sent.push({ method, path, body })
      return refuse?.() ?? json(200, meeting({ name: body.name, updatedOn: new Date().toISOString() }))
    }
    if (path === '/api/meetings?page=1&pageSize=50' || path.startsWith('/api/meetings?')) return json(200, { results: [], total: 0 })
    return json(404, { code: 'notFound', message: path })
  })
  return sent
}

async function openForm(role: 'admin' | 'member') {
  const r = await renderInApp(<ScheduleMeetupButton series={{ id: SERIES, name: 'Gardening', role }} />)
  signIn(r.session)
  await userEvent.click(screen.getByRole('button', { name: 'Schedule Meet Up' }))
  return screen.findByRole('dialog', { name: 'Schedule a Meet Up' })
}

describe('MeetupFormDialog (spec 002 §5)', () => {
  it('starts now with seconds 0 for 15 minutes, and shows every rule broken on submit', async () => {
    const sent = serve()
    const dialog = await openForm('admin')
    const now = new Date()
    const pad = (n: number) => String(n).padStart(2, '0')
    expect(within(dialog).getByLabelText('Start time')).toHaveValue(`${pad(now.getHours())}:${pad(now.getMinutes())}`)
    expect(within(dialog).getByRole('combobox', { name: 'Duration' })).toHaveTextContent('15 minutes')
    expect(within(dialog).getByText(/Max 250 characters/)).toBeInTheDocument()
    await userEvent.click(within(dialog).getByLabelText('Agenda'))
    await userEvent.paste('x'.repeat(251))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    expect(within(dialog).getByText('The name is required.')).toBeInTheDocument()
    expect(within(dialog).getByText('The agenda may have at most 250 characters.')).toBeInTheDocument()
    expect(within(dialog).getByText('Choose whether this Meet Up is open or private.')).toBeInTheDocument()
    expect(within(dialog).getByText('Invite at least one person, or choose Open registration.')).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('radio', { name: /Open registration/ }))
    await userEvent.clear(within(dialog).getByLabelText('Seats'))
    expect(within(dialog).getByText('Enter how many seats this open Meet Up has (1 to 50).')).toBeInTheDocument()
    await userEvent.type(within(dialog).getByLabelText('Seats'), '51')
    expect(within(dialog).getByText('The seat count must be between 1 and 50.')).toBeInTheDocument()
    expect(within(dialog).queryByText(/Invite at least one person/)).toBeNull()
    await userEvent.clear(within(dialog).getByLabelText('Start date'))
    await userEvent.type(within(dialog).getByLabelText('Start date'), '2020-01-01')
    expect(within(dialog).getByText('The start cannot be earlier than now.')).toBeInTheDocument()
    expect(sent).toHaveLength(0)
  })

  it('offers a member no open choice, invites people but not the creator, and posts the form', async () => {
    const sent = serve()
    const dialog = await openForm('member')
    expect(within(dialog).queryByRole('radio')).toBeNull()
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pruning roses')
    const search = within(dialog).getByRole('searchbox', { name: 'Search forum members to invite' })
    await userEvent.type(search, 'a')
    // Mia is the creator: never a candidate.
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument())
    expect(within(dialog).queryByRole('button', { name: 'Mia Me' })).toBeNull()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ada Lovelace' }))
    await userEvent.click(within(dialog).getByRole('switch', { name: 'Moderator: Ada Lovelace' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]!.body).toMatchObject({ name: 'Pruning roses', duration: 15, open: false, seatCount: null, invitees: { [ADA]: 'moderator' }, breakouts: [] })
    expect(new Date(sent[0]!.body.startTime).getSeconds()).toBe(0)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(sent[0]!.body.invitees).not.toHaveProperty(ME)
  })

  it('sends a start left at its default as the time of sending, not of opening', async () => {
    const sent = serve()
    const dialog = await openForm('member')
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Slow typist')
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search forum members to invite' }), 'a')
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Ada Lovelace' }))
    // Three minutes pass while the form is filled in.
    const later = Date.now() + 3 * 60_000
    vi.useFakeTimers({ toFake: ['Date'], now: later })
    try {
      await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
      await waitFor(() => expect(sent).toHaveLength(1))
    } finally {
      vi.useRealTimers()
    }
    expect(within(dialog).queryByText('The start cannot be earlier than now.')).toBeNull()
    expect(Date.parse(sent[0]!.body.startTime)).toBeGreaterThan(later - 60_000)
  })

  it('adds breakout rooms by Enter or Add: unique, 1 to 50 characters, at most 10', async () => {
    serve()
    const dialog = await openForm('member')
    const name = within(dialog).getByLabelText('Breakout room name')
    await userEvent.type(name, 'Roses{Enter}')
    await userEvent.type(name, 'Tulips')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add' }))
    const list = within(dialog).getByRole('list', { name: 'Breakout rooms' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Roses', 'Tulips'])
    await userEvent.type(name, 'roses{Enter}')
    expect(within(dialog).getByText('This breakout room already exists.')).toBeInTheDocument()
    await userEvent.clear(name)
    await userEvent.click(name)
    await userEvent.paste('x'.repeat(51))
    await userEvent.keyboard('{Enter}')
    expect(within(dialog).getByText('A breakout room name has 1 to 50 characters.')).toBeInTheDocument()
    await userEvent.clear(name)
    for (let i = 3; i <= 10; i++) await userEvent.type(name, `Room ${i}{Enter}`)
    await userEvent.type(name, 'Room 11{Enter}')
    expect(within(dialog).getByText('A Meet Up has at most 10 breakout rooms.')).toBeInTheDocument()
    expect(within(list).getAllByRole('listitem')).toHaveLength(10)
  })

  it('asks before a new open Meet Up e-mails the forum: "{memberCount} members of "{topicName}"…"', async () => {
    const sent = serve()
    const dialog = await openForm('admin')
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Open day')
    await userEvent.click(within(dialog).getByRole('radio', { name: /Open registration/ }))
    await userEvent.clear(within(dialog).getByLabelText('Seats'))
    await userEvent.type(within(dialog).getByLabelText('Seats'), '20')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    const confirm = await screen.findByRole('dialog', { name: 'Members of this Forum will be notified' })
    expect(confirm).toHaveTextContent('42 members of "Gardening" will be notified by email that they can register for this Meet Up.')
    expect(sent).toHaveLength(0)
    await userEvent.click(within(confirm).getByRole('button', { name: 'Schedule and notify' }))
    // Both dialogs close once the Meet Up is scheduled.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 5000 })
    expect(sent).toHaveLength(1)
    expect(sent[0]!.body).toMatchObject({ open: true, seatCount: 20, invitees: {} })
  })

  it('edits a Meet Up with open or private locked', async () => {
    const sent = serve()
    const m = meeting({ invitees: { [BO]: 'yes' }, roles: { [BO]: 'member' }, creatorId: ME, breakouts: { open: false, rooms: { Roses: 0 } } })
    const r = await renderInApp(<MeetupFormDialog open onOpenChange={() => {}} series={{ id: SERIES, name: 'Gardening' }} canOpen meeting={m} />)
    signIn(r.session)
    const dialog = await screen.findByRole('dialog', { name: 'Edit Meet Up' })
    expect(within(dialog).getByRole('radio', { name: /Private/ })).toBeChecked()
    expect(within(dialog).getByRole('radio', { name: /Open registration/ })).toBeDisabled()
    expect(within(dialog).getByText('Roses')).toBeInTheDocument()
    await userEvent.clear(within(dialog).getByLabelText('Name'))
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pruning, again')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]).toMatchObject({ method: 'PUT', body: { name: 'Pruning, again', open: false, invitees: { [BO]: 'member' }, breakouts: ['Roses'] } })
  })

  it('gives an open Meet Up 50 seats until the admin chooses another number, and a private one none', async () => {
    const sent = serve()
    const dialog = await openForm('admin')
    expect(within(dialog).queryByLabelText('Seats')).toBeNull()
    await userEvent.click(within(dialog).getByRole('radio', { name: /Open registration/ }))
    const seats = within(dialog).getByLabelText('Seats')
    expect(seats).toHaveValue(50)
    expect(seats).toHaveAccessibleDescription('Up to 50. Each member who registers takes a seat; the members you invite take none.')
    await userEvent.clear(seats)
    await userEvent.type(seats, '12')
    // Private drops the seats; open again starts from the default.
    await userEvent.click(within(dialog).getByRole('radio', { name: /Private/ }))
    expect(within(dialog).queryByLabelText('Seats')).toBeNull()
    await userEvent.click(within(dialog).getByRole('radio', { name: /Open registration/ }))
    expect(within(dialog).getByLabelText('Seats')).toHaveValue(50)
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Open day')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Members of this Forum will be notified' })).getByRole('button', { name: 'Schedule and notify' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0]!.body).toMatchObject({ open: true, seatCount: 50 })
  })

  it('names the time zone the start is entered in', async () => {
    serve()
    const dialog = await openForm('member')
    const zone = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(new Date()).find((p) => p.type === 'timeZoneName')!.value
    expect(within(dialog).getByLabelText('Start time')).toHaveAccessibleDescription(`In your time zone, ${zone}`)
  })

  it('says what the server refused at its field in the member’s words, never its developer text, and names Open registration only to an admin', async () => {
    const refusal = {
      code: 'validationFailed',
      message: 'the form is not valid',
      details: { fields: { invitees: 'At least one person must be invited, unless Open Registration is allowed', startTime: 'must not be in the past' } },
    }
    serve(() => json(400, refusal))
    const dialog = await openForm('member')
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pruning roses')
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search forum members to invite' }), 'a')
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Ada Lovelace' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    expect(await within(dialog).findByText('Invite at least one person.')).toBeInTheDocument()
    expect(within(dialog).getByLabelText('Start date')).toHaveAccessibleDescription('The start cannot be earlier than now.')
    expect(dialog).not.toHaveTextContent(/Open Registration|must not be|must be invited/i)
    // Changing the form takes the refusal away until the next try.
    await userEvent.type(within(dialog).getByLabelText('Name'), '!')
    expect(within(dialog).queryByText('Invite at least one person.')).toBeNull()
  })

  it('says an admin’s refused seat count in words, with the count of members registered', async () => {
    serve(() => json(400, { code: 'validationFailed', message: 'invalid', details: { fields: { seatCount: 'must be at least the 3 registered members' } } }))
    const m = meeting({ creatorId: ME, open: true, seatCount: 10, seatsLeft: 8, invitees: {}, roles: {} })
    const r = await renderInApp(<MeetupFormDialog open onOpenChange={() => {}} series={{ id: SERIES, name: 'Gardening' }} canOpen meeting={m} />)
    signIn(r.session)
    const dialog = await screen.findByRole('dialog', { name: 'Edit Meet Up' })
    const seats = within(dialog).getByLabelText('Seats')
    // Two registered: the form itself keeps the seats at two or more.
    await userEvent.clear(seats)
    await userEvent.type(seats, '1')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByText('2 members have registered already: keep at least 2 seats.')).toBeInTheDocument()
    // One more registered since the form opened: the server says so.
    await userEvent.type(seats, '{Backspace}2')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('3 members have registered already: keep at least 3 seats.')).toBeInTheDocument()
    expect(dialog).not.toHaveTextContent('must be at least')
  })

  it('says a refusal without a field in words: no longer allowed, ended', async () => {
    let answer = json(403, { code: 'forbidden', message: 'forbidden' })
    serve(() => answer)
    const dialog = await openForm('member')
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Pruning roses')
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Search forum members to invite' }), 'a')
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Ada Lovelace' }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    expect(await within(dialog).findByText('You can no longer schedule this Meet Up in this forum.')).toBeInTheDocument()
    answer = json(500, { code: 'internal', message: 'pq: connection refused' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Schedule' }))
    expect(await within(dialog).findByText('The Meet Up could not be saved. Please try again.')).toBeInTheDocument()
    expect(dialog).not.toHaveTextContent('pq:')
  })

  it('tells a member who edits their private Meet Up nothing of open registration, which they may not choose', async () => {
    serve()
    const m = meeting({ creatorId: ME, invitees: { [BO]: 'yes' }, roles: { [BO]: 'member' } })
    const r = await renderInApp(<MeetupFormDialog open onOpenChange={() => {}} series={{ id: SERIES, name: 'Gardening' }} canOpen={false} meeting={m} />)
    signIn(r.session)
    const dialog = await screen.findByRole('dialog', { name: 'Edit Meet Up' })
    expect(within(dialog).getByLabelText('Name')).toHaveValue('Pruning roses')
    expect(within(dialog).queryByRole('radio')).toBeNull()
    expect(dialog).not.toHaveTextContent(/open registration|open or private/i)
    await userEvent.click(within(within(dialog).getByTestId('invitees')).getByRole('button', { name: /^Remove / }))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(within(dialog).getByText('Invite at least one person.')).toBeInTheDocument()
  })
})
