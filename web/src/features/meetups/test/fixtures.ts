import { COMMUNITY, forumMember, ME, SERIES } from '@/test/factories'
import type { ChatMessage, Meeting } from '../api/types'

// Meet Ups as the API serves them (contract 18), for the Meet Ups' tests.

export const ADA = '0190a000-0000-7000-8000-0000000000aa'
export const BO = '0190a000-0000-7000-8000-0000000000bb'
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

const person = (userId: string, firstName: string, lastName: string) =>
  forumMember(firstName, { id: `m-${userId}`, userId, lastName, email: `${firstName.toLowerCase()}@example.com` })

export const PEOPLE = [person(ME, 'Mia', 'Me'), person(ADA, 'Ada', 'Lovelace'), person(BO, 'Bo', 'Brown')]

/** The Meet Up chat's channel in the tests. */
export const CHAT_CHANNEL = '0190a000-0000-7000-8000-0000000000c1'

/** chatMessage is a message of the Meet Up ROOM's chat, Bo's unless over says otherwise. */
export function chatMessage(id: string, raw: string, over: Partial<ChatMessage> = {}): ChatMessage {
  const at = new Date().toISOString()
  return {
    id,
    channelId: CHAT_CHANNEL,
    roomId: ROOM,
    creatorId: BO,
    creator: { userId: BO, firstName: 'Bo', lastName: 'Brown', avatar: null },
    raw,
    image: null,
    link: null,
    file: null,
    createdOn: at,
    updatedOn: at,
    reactions: {},
    isMine: false,
    ...over,
  }
}
