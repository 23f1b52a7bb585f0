import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { json, renderInApp, stubFetch } from '@/test/utils'
import type { Thread } from '../lib/thread-cache'
import { ME, OTHER, SERIES, reply, thread } from '@/test/factories'
import { Comments } from './comments'

afterEach(() => vi.unstubAllGlobals())

const INVITED = '0190a000-0000-7000-8000-0000000000a1'
const STRANGER = '0190a000-0000-7000-8000-0000000000a2'

const person = (userId: string, firstName: string, lastName: string) => ({ userId, firstName, lastName, avatar: null, jobTitle: '', company: '' })
// Olga (OTHER) creates the Meet Up; Ivy is invited; Sam is only in the forum.
const people = [person(OTHER, 'Olga', 'Other'), person(INVITED, 'Ivy', 'Invited'), person(STRANGER, 'Sam', 'Stranger')]

/** meetupPost is a Meet Up post by Olga with Ivy and me invited; only the fields the comments read matter. */
const meetupPost = (open: boolean): Thread =>
  thread('t1', {
    meeting: { roomId: 'r1', creatorId: OTHER, open, invitees: { [INVITED]: null, [ME]: 'yes' } } as unknown as Thread['meeting'],
    replies: [reply('c1')],
    repliesCount: 1,
  })

async function suggested(t: Thread, box: () => HTMLElement) {
  stubFetch((_m, path) =>
    path.startsWith(`/api/series/${SERIES}/mention-candidates`) ? json(200, { results: people, total: people.length }) : json(404, { code: 'notFound', message: path }),
  )
  await renderInApp(<Comments thread={t} seriesId={SERIES} expanded={false} seen={{ lastSeen: null, me: ME, touch: () => {} }} />)
  await userEvent.type(box(), '@')
  const list = await screen.findByRole('listbox')
  return within(list)
    .getAllByRole('option')
    .map((o) => o.textContent)
}

describe('comments on a Meet Up post (spec 001 §5)', () => {
  it('mention only the invitees and the creator of a private Meet Up, in a comment and in a reply', async () => {
    const t = meetupPost(false)
    expect(await suggested(t, () => screen.getByRole('textbox', { name: 'Write a comment' }))).toEqual([expect.stringContaining('Olga Other'), expect.stringContaining('Ivy Invited')])
    await userEvent.keyboard('{Escape}')
    await userEvent.click(screen.getByRole('button', { name: 'Reply' }))
    const replyBox = screen.getByRole('textbox', { name: 'Write a reply' })
    await userEvent.type(replyBox, '@')
    const list = await screen.findByRole('listbox')
    expect(within(list).queryByText(/Sam Stranger/)).toBeNull()
    expect(within(list).getByText(/Ivy Invited/)).toBeInTheDocument()
  })

  it('mention anyone of the forum on an open Meet Up', async () => {
    const t = meetupPost(true)
    expect(await suggested(t, () => screen.getByRole('textbox', { name: 'Write a comment' }))).toEqual(people.map((p) => expect.stringContaining(`${p.firstName} ${p.lastName}`)))
  })
})
