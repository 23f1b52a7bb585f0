import type { FeedData, Reply, Thread } from '../lib/thread-cache'

// Posts and comments as the API serves them, for the feed's tests.

const stats = (s: Partial<Thread['reactions']> = {}): Thread['reactions'] => {
  const r = { liked: 0, loved: 0, smiled: 0, disliked: 0, neutral: 0, ...s }
  return { ...r, totalCount: r.liked + r.loved + r.smiled + r.disliked + r.neutral }
}

export const ME = '0190a000-0000-7000-8000-000000000001'
export const OTHER = '0190a000-0000-7000-8000-000000000002'
export const CHANNEL = '0190a000-0000-7000-8000-0000000000c1'
export const SERIES = '0190a000-0000-7000-8000-0000000000f1'

export function reply(id: string, over: Partial<Reply> = {}): Reply {
  return {
    id,
    threadId: 't1',
    parentId: null,
    creatorId: OTHER,
    creator: { userId: OTHER, firstName: 'Olga', lastName: 'Other', avatar: null, isExpert: false },
    raw: `comment ${id}`,
    mentions: [],
    hashtags: [],
    reactions: stats(),
    myReaction: null,
    canManage: false,
    repliesCount: 0,
    replies: [],
    createdOn: '2026-11-20T10:00:00.000Z',
    updatedOn: '2026-11-20T10:00:00.000Z',
    ...over,
  }
}

export function thread(id: string, over: Partial<Thread> = {}): Thread {
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
    reactions: stats(),
    myReaction: null,
    canManage: false,
    isMine: false,
    repliesCount: 0,
    replies: [],
    createdOn: '2026-11-20T09:00:00.000Z',
    updatedOn: '2026-11-20T09:00:00.000Z',
    ...over,
  }
}

export const feed = (...pages: Thread[][]): FeedData => ({
  pages: pages.map((results) => ({ results })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `cursor-${i}`)),
})

export { stats }
