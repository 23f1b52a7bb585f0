import { act } from '@testing-library/react'
import type { Schemas } from '@/api/client'
import type { Session } from '@/lib/session'
import type { Meeting } from '../api/types'

// Meet Ups as the API serves them (contract 18), for the Meet Ups' tests.

export const ME = '0190a000-0000-7000-8000-000000000001'
export const ADA = '0190a000-0000-7000-8000-0000000000aa'
export const BO = '0190a000-0000-7000-8000-0000000000bb'
export const COMMUNITY = '0190a000-0000-7000-8000-0000000000c0'
export const SERIES = '0190a000-0000-7000-8000-0000000000f1'
export const ROOM = '0190a000-0000-7000-8000-0000000000e1'
export const POST = '0190a000-0000-7000-8000-0000000000d1'

const MIN = 60_000

/** meeting is a Meet Up starting in an hour (startsIn minutes), created by Ada, private with me invited. */
export function meeting(over: Partial<Meeting> = {}, startsIn = 60): Meeting {
  const start = new Date(Date.now() + startsIn * MIN)
  start.setSeconds(0, 0)
  const duration = over.duration ?? 30
  return {
    roomId: ROOM,
    postId: POST,
    seriesId: SERIES,
    creatorId: ADA,
    name: 'Pruning roses',
    agenda: 'When and how to prune.',
    startTime: start.toISOString(),
    endTime: new Date(start.getTime() + duration * MIN).toISOString(),
    createdOn: '2026-11-20T09:00:00.000Z',
    updatedOn: '2026-11-20T09:00:00.000Z',
    duration,
    open: false,
    seatCount: null,
    seatsLeft: null,
    invitees: { [ME]: null },
    roles: { [ME]: 'member' },
    waitlist: [],
    breakouts: { open: false, rooms: {} },
    minutes: { state: null, content: null, updatedOn: null },
    ended: false,
    endedOn: null,
    tag: ROOM,
    reminderAt: new Date(start.getTime() - 15 * MIN).toISOString(),
    context: { communityId: COMMUNITY, seriesId: SERIES, seriesName: 'Gardening' },
    topicRoute: `/communities/${COMMUNITY}/series/${SERIES}`,
    postRoute: `/communities/${COMMUNITY}/series/${SERIES}/posts/${POST}`,
    myRole: 'member',
    ...over,
  }
}

export const forumMember = (userId: string, firstName: string, lastName: string): Schemas['ForumMember'] => ({
  id: `m-${userId}`,
  userId,
  firstName,
  lastName,
  email: `${firstName.toLowerCase()}@example.com`,
  avatar: null,
  jobTitle: '',
  company: '',
  assignedOn: '2026-01-01T00:00:00.000Z',
  isSubscribed: true,
  isExpert: false,
  role: 'member',
  status: 'active',
})

export const PEOPLE = [forumMember(ME, 'Mia', 'Me'), forumMember(ADA, 'Ada', 'Lovelace'), forumMember(BO, 'Bo', 'Brown')]

/** signIn signs the test's session in as ME. */
export function signIn(session: Session) {
  act(() =>
    session.signedIn({ accessToken: 't', user: { id: ME, firstName: 'Mia', lastName: 'Me', email: 'm@example.com', avatar: null } as Schemas['User'], role: 'user' }),
  )
}
