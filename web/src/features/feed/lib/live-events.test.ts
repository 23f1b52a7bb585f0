import { describe, expect, it } from 'vitest'
import type { HubMessage } from '@/lib/hub'
import { CHANNEL, ME, OTHER, reactionStats, reply, SERIES, thread } from '@/test/factories'
import { feed } from '../test/fixtures'
import { QueryClient } from '@tanstack/react-query'
import { applyFeedEvent, readFeedEvent, reduceFeed, reduceThread, type FeedEvent, type Reader } from './live-events'
import { feedKeys, type FeedData } from './thread-cache'

const reader: Reader = { userId: ME, isForumAdmin: false }
const msg = (event: string, payload: unknown): HubMessage => ({
  type: 'api:messages:broadcast',
  contextKey: 'thread:x',
  event,
  data: { payload },
})
const read = (event: string, payload: unknown) => {
  const e = readFeedEvent(msg(event, payload))
  if (!e) throw new Error(`not read: ${event}`)
  return e
}

function payloadOf(t: ReturnType<typeof thread>) {
  const { myReaction: _m, canManage: _c, isMine: _i, repliesCount: _r, commentsCount: _cc, replies: _rs, ...p } = t
  return p
}

function replyPayload(r: ReturnType<typeof reply>) {
  const { myReaction: _m, canManage: _c, repliesCount: _r, replies: _rs, ...p } = r
  return { ...p, channelId: CHANNEL, seriesId: SERIES }
}

describe('readFeedEvent', () => {
  it('reads the forum events and nothing else', () => {
    expect(read('thread.deleted', { id: 't1', channelId: CHANNEL, seriesId: SERIES })).toEqual({ kind: 'threadDeleted', id: 't1', channelId: CHANNEL })
    expect(readFeedEvent(msg('user.updated', { id: 'u' }))).toBeUndefined()
    expect(readFeedEvent(msg('thread.created', { id: 't1' }))).toBeUndefined()
    expect(readFeedEvent(msg('thread.reacted', null))).toBeUndefined()
  })
})

describe('reduceThread', () => {
  it('takes the new meeting of a Meet Up post from thread.updated', () => {
    const m = { roomId: 'r', name: 'Before' } as never
    const post = thread('t1', { meeting: m })
    const e = read('thread.updated', payloadOf({ ...post, meeting: { roomId: 'r', name: 'After' } as never }))
    expect((reduceThread(post, e, reader, true)?.meeting as { name: string } | null)?.name).toBe('After')
  })
})

describe('reduceFeed', () => {
  const data = feed([thread('t2', { createdOn: '2026-11-21T00:00:00.000Z' }), thread('t1')], [thread('t0')])

  it('puts a new post at the top, once, with this reader’s own fields', () => {
    const mine = thread('t3', { creatorId: ME, creator: { userId: ME, firstName: 'M', lastName: 'E', avatar: null, isExpert: false } })
    const e = read('thread.created', payloadOf(mine))
    const once = reduceFeed(data, e, reader)!
    expect(once.pages[0]!.results.map((t) => t.id)).toEqual(['t3', 't2', 't1'])
    expect(once.pages[0]!.results[0]).toMatchObject({ canManage: true, myReaction: null, repliesCount: 0, replies: [] })
    expect(reduceFeed(once, e, reader)).toBe(once)
    // Someone else's post: managed only by a forum admin.
    const theirs = read('thread.created', payloadOf(thread('t4')))
    expect(reduceFeed(data, theirs, reader)!.pages[0]!.results[0]!.canManage).toBe(false)
    expect(reduceFeed(data, theirs, { userId: ME, isForumAdmin: true })!.pages[0]!.results[0]!.canManage).toBe(true)
  })

  it('keeps the conversation of a shared AI chat that arrives live', () => {
    const chat = [
      { role: 'user' as const, content: 'Q?', createdOn: '2026-11-21T00:00:00.000Z' },
      { role: 'other' as const, content: 'A [1].', createdOn: '2026-11-21T00:00:01.000Z' },
    ]
    const shared = read('thread.created', payloadOf(thread('t5', { type: 'shared-ai-chat', chat })))
    expect(reduceFeed(data, shared, reader)!.pages[0]!.results[0]).toMatchObject({ id: 't5', type: 'shared-ai-chat', chat })
    // An event without the field gives other posts their null chat.
    const { chat: _c, ...old } = payloadOf(thread('t6'))
    expect(reduceFeed(data, read('thread.created', old), reader)!.pages[0]!.results[0]!.chat).toBeNull()
  })

  it('replaces the edited fields of a post and keeps the reader’s own', () => {
    const before = feed([thread('t1', { myReaction: 'loved', canManage: true, repliesCount: 2 })])
    const edited = thread('t1', { raw: 'edited #x', hashtags: ['x'], image: { url: 'https://img.example/a.png' }, reactions: reactionStats({ loved: 1 }) })
    const after = reduceFeed(before, read('thread.updated', payloadOf(edited)), reader)!
    expect(after.pages[0]!.results[0]).toMatchObject({
      raw: 'edited #x',
      hashtags: ['x'],
      image: { url: 'https://img.example/a.png' },
      myReaction: 'loved',
      canManage: true,
      repliesCount: 2,
    })
  })

  it('removes a deleted post from whichever page holds it', () => {
    const after = reduceFeed(data, read('thread.deleted', { id: 't0', channelId: CHANNEL, seriesId: SERIES }), reader)!
    expect(after.pages.map((p) => p.results.map((t) => t.id))).toEqual([['t2', 't1'], []])
  })

  it('leaves a feed that does not hold the post as it is', () => {
    const e = read('thread.reply.created', replyPayload(reply('r9', { threadId: 'nope' })))
    expect(reduceFeed(data, e, reader)).toBe(data)
  })
})

describe('reduceThread', () => {
  const featured = reply('c1', { replies: [reply('r1', { parentId: 'c1' })], repliesCount: 1 })
  const post = thread('t1', { repliesCount: 3, replies: [featured, reply('c2')] })
  const apply = (t: ReturnType<typeof thread>, e: FeedEvent, complete = true) => reduceThread(t, e, reader, complete)!

  it('adds a new comment last in the full post, and only counts it in a feed page', () => {
    const e = read('thread.reply.created', replyPayload(reply('c3', { createdOn: '2026-11-21T00:00:00.000Z' })))
    const full = apply(post, e)
    expect(full.replies.map((r) => r.id)).toEqual(['c1', 'c2', 'c3'])
    expect(full.repliesCount).toBe(4)
    expect(apply(full, e)).toBe(full) // the API answer and the event: once
    const page = apply(thread('t1', { repliesCount: 3, replies: [featured] }), e, false)
    expect(page.replies.map((r) => r.id)).toEqual(['c1'])
    expect(page.repliesCount).toBe(4)
    // The first comment of a post is shown in the feed too.
    expect(apply(thread('t1'), e, false).replies.map((r) => r.id)).toEqual(['c3'])
  })

  it('adds a reply under its comment', () => {
    const e = read('thread.reply.created', replyPayload(reply('r2', { parentId: 'c1', creatorId: ME })))
    const after = apply(post, e)
    const c1 = after.replies[0]!
    expect(c1.replies.map((r) => r.id)).toEqual(['r1', 'r2'])
    expect(c1.repliesCount).toBe(2)
    expect(c1.replies[1]!.canManage).toBe(true)
    expect(after.repliesCount).toBe(4)
  })

  it('updates a comment at the top level and a reply nested', () => {
    const top = apply(post, read('thread.reply.updated', replyPayload(reply('c2', { raw: 'new c2' }))))
    expect(top.replies[1]!.raw).toBe('new c2')
    const nested = apply(post, read('thread.reply.updated', replyPayload(reply('r1', { parentId: 'c1', raw: 'new r1' }))))
    expect(nested.replies[0]!.replies[0]!.raw).toBe('new r1')
  })

  it('deletes a comment with its replies, or a nested reply', () => {
    const c1gone = apply(post, read('thread.reply.deleted', replyPayload(featured)))
    expect(c1gone.replies.map((r) => r.id)).toEqual(['c2'])
    expect(c1gone.repliesCount).toBe(1)
    const r1gone = apply(post, read('thread.reply.deleted', replyPayload(reply('r1', { parentId: 'c1' }))))
    expect(r1gone.replies[0]!.replies).toEqual([])
    expect(r1gone.replies[0]!.repliesCount).toBe(0)
    expect(r1gone.repliesCount).toBe(2)
  })

  it('sets the counts of a reaction, and the reader’s own only when it is theirs', () => {
    const theirs = read('thread.reacted', {
      threadId: 't1', replyId: null, channelId: CHANNEL, seriesId: SERIES, userId: OTHER, reaction: 'liked', reactions: reactionStats({ liked: 1 }),
    })
    const a = apply(post, theirs)
    expect(a.reactions).toEqual(reactionStats({ liked: 1 }))
    expect(a.myReaction).toBeNull()
    const mine = read('thread.reacted', {
      threadId: 't1', replyId: 'r1', channelId: CHANNEL, seriesId: SERIES, userId: ME, reaction: 'smiled', reactions: reactionStats({ smiled: 1 }),
    })
    const b = apply(post, mine)
    expect(b.replies[0]!.replies[0]).toMatchObject({ myReaction: 'smiled', reactions: reactionStats({ smiled: 1 }) })
    expect(b.reactions).toEqual(post.reactions)
  })

  it('removes a deleted post', () => {
    expect(reduceThread(post, read('thread.deleted', { id: 't1', channelId: CHANNEL, seriesId: SERIES }), reader, true)).toBeNull()
  })
})

describe('applyFeedEvent', () => {
  it('puts a new post in the channel\'s feed and in the feeds of the hashtags it carries, any case', () => {
    const qc = new QueryClient()
    const all = feedKeys.channel(CHANNEL)
    const intro = feedKeys.channel(CHANNEL, 'intro')
    const other = feedKeys.channel(CHANNEL, 'roadmap')
    for (const k of [all, intro, other]) qc.setQueryData<FeedData>(k, feed([thread('t0')]))
    const t = thread('t9', { raw: 'hello #Intro', hashtags: ['Intro'] })
    applyFeedEvent(qc, { kind: 'threadCreated', thread: payloadOf(t) } as FeedEvent, reader)
    const ids = (k: readonly unknown[]) => qc.getQueryData<FeedData>(k)!.pages[0]!.results.map((x) => x.id)
    expect(ids(all)).toEqual(['t9', 't0'])
    expect(ids(intro)).toEqual(['t9', 't0'])
    expect(ids(other)).toEqual(['t0'])
  })
})
