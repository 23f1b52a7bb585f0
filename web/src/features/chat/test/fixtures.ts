import type { ChatMessage, Peer, PrivateChannel } from '../api/types'

// Peers, channels and messages as the API serves them, for the chat's tests.

export const ME = '0190a000-0000-7000-8000-000000000001'
export const ADA = '0190a000-0000-7000-8000-0000000000aa'
export const BEN = '0190a000-0000-7000-8000-0000000000bb'
export const CHANNEL = '0190a000-0000-7000-8000-0000000000c1'

/** meUser is who the chat's tests sign in as (signIn(session, meUser)). */
export const meUser = { id: ME, firstName: 'Mia', lastName: 'Me', email: 'mia@example.com' }

export function peer(userId: string, firstName: string, status: Peer['status'] = 'offline', over: Partial<Peer> = {}): Peer {
  return {
    id: userId,
    userId,
    name: `${firstName} L`,
    firstName,
    lastName: 'L',
    avatar: null,
    company: 'Acme',
    jobTitle: 'Engineer',
    interestTags: [],
    tags: [],
    status,
    presence: status === 'offline' ? null : '2026-11-24T08:00:00.000Z',
    lastMessageOn: null,
    ...over,
  }
}

export function channel(p: Peer, over: Partial<PrivateChannel> = {}): PrivateChannel {
  return {
    id: CHANNEL,
    memberIds: [ME, p.userId],
    peer: p,
    hasUnread: false,
    latestThread: null,
    lastSeenOn: null,
    lastActivityOn: null,
    ...over,
  }
}

export function message(id: string, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id,
    channelId: CHANNEL,
    roomId: null,
    creatorId: ADA,
    creator: { userId: ADA, firstName: 'Ada', lastName: 'L', avatar: null },
    raw: `message ${id}`,
    image: null,
    link: null,
    file: null,
    createdOn: '2026-11-24T09:00:00.000Z',
    updatedOn: '2026-11-24T09:00:00.000Z',
    reactions: {},
    isMine: false,
    ...over,
  }
}
