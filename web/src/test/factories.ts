import { act } from '@testing-library/react'
import type { Schemas } from '@/api/client'
import type { Session } from '@/lib/session'

// The API's shapes as the server serves them, for every test of the web app:
// each factory fills every field the schema (schema.d.ts) asks for, so a test
// names only what it is about, and a field added to the contract is added
// here once rather than in each test.

/** The ids the factories' defaults use: the signed-in person, another, and the forum they meet in. */
export const ME = '0190a000-0000-7000-8000-000000000001'
export const OTHER = '0190a000-0000-7000-8000-000000000002'
export const COMMUNITY = '0190a000-0000-7000-8000-0000000000c0'
export const CHANNEL = '0190a000-0000-7000-8000-0000000000c1'
export const SERIES = '0190a000-0000-7000-8000-0000000000f1'

const CREATED = '2026-01-01T00:00:00.000Z'

/** forum is a Forum (GET /api/series/{id}): "Design Forum", invite-only, free, the member's own, with no admin channel. */
export function forum(over: Partial<Schemas['Forum']> = {}): Schemas['Forum'] {
  return {
    id: SERIES,
    name: 'Design Forum',
    description: 'About design',
    image: null,
    exclusivity: 'inviteOnly',
    shareEnabled: false,
    position: 0,
    context: { communityId: COMMUNITY },
    role: 'member',
    isSubscribed: true,
    isFree: true,
    price: 0,
    currency: 'USD',
    createdOn: CREATED,
    updatedOn: CREATED,
    mainChannelId: CHANNEL,
    adminChannelId: null,
    ...over,
  }
}

/** myForum is a forum of the member's communities list (GET /api/communities): a member's, subscribed. */
export function myForum(id: string, name: string, over: Partial<Schemas['MyForum']> = {}): Schemas['MyForum'] {
  return { id, name, description: '', image: null, role: 'member', isExpert: false, isSubscribed: true, createdOn: CREATED, ...over }
}

/** community is a Community of the member's list (GET /api/communities): invite-only, free, the member's, with series as its forums. */
export function community(id: string, name: string, series: Schemas['MyForum'][], over: Partial<Schemas['Community']> = {}): Schemas['Community'] {
  return {
    id,
    name,
    description: '',
    image: null,
    video: null,
    videoCover: null,
    ssoAccess: false,
    membershipType: 'invitationOnly',
    role: 'member',
    isSubscribed: true,
    isFree: true,
    price: 0,
    currency: 'USD',
    numShares: 1,
    context: { organizationId: 'o1' },
    organization: { id: 'o1', name: 'Org' },
    permissions: { canManage: false, canShare: false, canUploadMembers: false },
    lastVisitedOn: null,
    createdOn: CREATED,
    assignedOn: CREATED,
    event: null,
    series,
    ...over,
  }
}

/** forumMember is a forum's member (GET /api/series/{id}/members) named firstName: an active member, no expert. */
export function forumMember(firstName: string, over: Partial<Schemas['ForumMember']> = {}): Schemas['ForumMember'] {
  return {
    id: `member-${firstName}`,
    userId: `user-${firstName}`,
    firstName,
    lastName: 'Person',
    email: `${firstName.toLowerCase()}@example.test`,
    avatar: null,
    jobTitle: '',
    company: '',
    assignedOn: CREATED,
    isSubscribed: true,
    isExpert: false,
    role: 'member',
    status: 'active',
    ...over,
  }
}

/** reactionStats counts the reactions given, and their total. */
export function reactionStats(s: Partial<Schemas['ReactionStats']> = {}): Schemas['ReactionStats'] {
  const r = { liked: 0, loved: 0, smiled: 0, disliked: 0, neutral: 0, ...s }
  return { ...r, totalCount: r.liked + r.loved + r.smiled + r.disliked + r.neutral }
}

/** reply is a comment (Reply) by Olga Other on the post t1, with no reactions and no replies of its own. */
export function reply(id: string, over: Partial<Schemas['Reply']> = {}): Schemas['Reply'] {
  return {
    id,
    threadId: 't1',
    parentId: null,
    creatorId: OTHER,
    creator: { userId: OTHER, firstName: 'Olga', lastName: 'Other', avatar: null, isExpert: false },
    raw: `comment ${id}`,
    mentions: [],
    hashtags: [],
    reactions: reactionStats(),
    myReaction: null,
    canManage: false,
    repliesCount: 0,
    replies: [],
    createdOn: '2026-11-20T10:00:00.000Z',
    updatedOn: '2026-11-20T10:00:00.000Z',
    ...over,
  }
}

/** thread is a post (Thread) of the forum's main channel by Olga Other, an expert: no attachment, no comment. */
export function thread(id: string, over: Partial<Schemas['Thread']> = {}): Schemas['Thread'] {
  return {
    id,
    channelId: CHANNEL,
    seriesId: SERIES,
    type: 'post',
    creatorAs: 'author',
    creatorId: OTHER,
    creator: { userId: OTHER, firstName: 'Olga', lastName: 'Other', avatar: null, isExpert: true },
    raw: `post ${id}`,
    image: null,
    file: null,
    link: null,
    meeting: null,
    chat: null,
    mentions: [],
    hashtags: [],
    reactions: reactionStats(),
    myReaction: null,
    canManage: false,
    isMine: false,
    repliesCount: 0,
    commentsCount: 0,
    replies: [],
    createdOn: '2026-11-20T09:00:00.000Z',
    updatedOn: '2026-11-20T09:00:00.000Z',
    ...over,
  }
}

/** user is the signed-in person (User) Mia Me, a plain user with an empty profile. */
export function user(over: Partial<Schemas['User']> = {}): Schemas['User'] {
  return {
    id: ME,
    email: 'm@example.com',
    firstName: 'Mia',
    lastName: 'Me',
    avatar: null,
    role: 'user',
    jobTitle: '',
    company: '',
    bio: '',
    interestTags: [],
    school: '',
    degree: '',
    fieldOfStudy: '',
    graduationYear: null,
    createdOn: CREATED,
    ...over,
  }
}

/**
 * signIn signs the test's session in as user(over), inside act since the
 * session's change renders. accessToken is 't' unless given: the live hub
 * is kept per token, so a test that needs a new connection gives a fresh one.
 */
export function signIn(session: Session, over: Partial<Schemas['User']> = {}, accessToken = 't') {
  act(() => session.signedIn({ accessToken, user: user(over), role: 'user' }))
}
