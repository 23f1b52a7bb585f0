import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import type { Schemas } from '@/api/client'

// The pure changes the feed makes to its cached posts: a reaction of the
// signed-in member (applied optimistically), and the live events of spec
// 001 §4 ("Live thread events applied to the local view"). Each is
// idempotent, because a member's own change arrives twice: from the API's
// answer and again from the hub.

export type Thread = Schemas['Thread']
export type Reply = Schemas['Reply']
export type ReactionKind = Schemas['ReactionKind']
export type ReactionStats = Schemas['ReactionStats']
export type ThreadPage = Schemas['ThreadPage']
export type FeedData = InfiniteData<ThreadPage, string | null>

/** withMyReaction moves the caller's reaction from its old kind to next, counts included. */
export function withMyReaction<T extends { reactions: ReactionStats; myReaction: ReactionKind | null }>(item: T, next: ReactionKind | null): T {
  const old = item.myReaction
  if (old === next) return item
  const r = { ...item.reactions }
  if (old) {
    r[old] = Math.max(0, r[old] - 1)
    r.totalCount = Math.max(0, r.totalCount - 1)
  }
  if (next) {
    r[next] += 1
    r.totalCount += 1
  }
  return { ...item, reactions: r, myReaction: next }
}

/** mapReply applies fn to the reply id of a thread, searched at top level and then nested. */
export function mapReply(thread: Thread, replyId: string, fn: (r: Reply) => Reply): Thread {
  let found = false
  const replies = thread.replies.map((c) => {
    if (found) return c
    if (c.id === replyId) {
      found = true
      return fn(c)
    }
    const i = c.replies.findIndex((r) => r.id === replyId)
    if (i < 0) return c
    found = true
    const nested = [...c.replies]
    nested[i] = fn(nested[i]!)
    return { ...c, replies: nested }
  })
  return found ? { ...thread, replies } : thread
}

/** findReply is the reply id of a thread, at top level or nested. */
export function findReply(thread: Thread, replyId: string): Reply | undefined {
  for (const c of thread.replies) {
    if (c.id === replyId) return c
    const r = c.replies.find((x) => x.id === replyId)
    if (r) return r
  }
  return undefined
}

/**
 * addReply adds a new comment or reply. Comments are kept oldest first, as
 * the API serves them, so a new one goes last (the spec's "front" is that
 * of a newest-first list). In a feed page only the featured comment is held
 * (`complete` false): a new comment then only counts, unless there is none.
 */
export function addReply(thread: Thread, reply: Reply, complete: boolean): Thread {
  if (findReply(thread, reply.id)) return thread
  const count = thread.repliesCount + 1
  if (reply.parentId) {
    const parent = thread.replies.find((c) => c.id === reply.parentId)
    if (!parent) return { ...thread, repliesCount: count }
    return {
      ...thread,
      repliesCount: count,
      replies: thread.replies.map((c) => (c.id === parent.id ? { ...c, repliesCount: c.repliesCount + 1, replies: [...c.replies, reply] } : c)),
    }
  }
  const comments = thread.commentsCount + 1
  if (!complete && thread.replies.length > 0) return { ...thread, repliesCount: count, commentsCount: comments }
  return { ...thread, repliesCount: count, commentsCount: comments, replies: [...thread.replies, reply] }
}

/** removeReply deletes a comment (with its replies) or a reply, searched at top level and then nested. */
export function removeReply(thread: Thread, replyId: string): Thread {
  const top = thread.replies.find((c) => c.id === replyId)
  if (top) {
    return {
      ...thread,
      repliesCount: Math.max(0, thread.repliesCount - 1 - top.repliesCount),
      commentsCount: Math.max(0, thread.commentsCount - 1),
      replies: thread.replies.filter((c) => c.id !== replyId),
    }
  }
  const parent = thread.replies.find((c) => c.replies.some((r) => r.id === replyId))
  if (!parent) return thread
  return {
    ...thread,
    repliesCount: Math.max(0, thread.repliesCount - 1),
    replies: thread.replies.map((c) =>
      c.id === parent.id ? { ...c, repliesCount: Math.max(0, c.repliesCount - 1), replies: c.replies.filter((r) => r.id !== replyId) } : c,
    ),
  }
}

/**
 * The fields of a post that an edit changes (spec 001 §4: raw, file, link,
 * image, reactions, hashtags, mentions), and a Meet Up post's meeting, which
 * thread.updated carries when the Meet Up changes.
 */
export type ThreadEdit = Partial<Pick<Thread, 'raw' | 'file' | 'link' | 'image' | 'reactions' | 'hashtags' | 'mentions' | 'updatedOn' | 'meeting'>>

/** editThread replaces the edited fields present in edit. */
export function editThread(thread: Thread, edit: ThreadEdit): Thread {
  const next = { ...thread }
  for (const k of ['raw', 'file', 'link', 'image', 'reactions', 'hashtags', 'mentions', 'updatedOn', 'meeting'] as const) {
    if (edit[k] !== undefined) (next as Record<string, unknown>)[k] = edit[k]
  }
  return next
}

/** A change to one post: the new post, or null when it is gone. */
export type ThreadChange = (t: Thread) => Thread | null

/** mapFeed applies change to the post id in every loaded page. */
export function mapFeed(data: FeedData | undefined, id: string, change: ThreadChange): FeedData | undefined {
  if (!data) return data
  let touched = false
  const pages = data.pages.map((p) => {
    if (!p.results.some((t) => t.id === id)) return p
    touched = true
    const results: Thread[] = []
    for (const t of p.results) {
      if (t.id !== id) results.push(t)
      else {
        const n = change(t)
        if (n) results.push(n)
      }
    }
    return { ...p, results }
  })
  return touched ? { ...data, pages } : data
}

/** Query keys of the feed (feature-local so that every cache writer agrees). */
export const feedKeys = {
  /** A channel's feed; with a hashtag, its posts carrying it (a clicked hashtag). */
  channel: (channelId: string, hashtag?: string) =>
    hashtag ? (['channels', channelId, 'threads', { hashtag }] as const) : (['channels', channelId, 'threads'] as const),
  thread: (threadId: string) => ['threads', threadId] as const,
  reactions: (threadId: string, replyId?: string) => ['threads', threadId, 'reactions', { replyId: replyId ?? null }] as const,
}

export const isFeedKey = (key: readonly unknown[]) =>
  key[0] === 'channels' && key[2] === 'threads' && (key.length === 3 || (key.length === 4 && typeof (key[3] as { hashtag?: unknown })?.hashtag === 'string'))

/**
 * updateThreadEverywhere applies a change to a post in every cached feed
 * and in its own query. `detail` is used for the single-post cache, which
 * holds every comment (so new comments are added there, and only counted
 * in the feed).
 */
export function updateThreadEverywhere(qc: QueryClient, id: string, feed: ThreadChange, detail: ThreadChange = feed) {
  qc.setQueriesData<FeedData>({ predicate: (q) => isFeedKey(q.queryKey) }, (d) => mapFeed(d, id, feed))
  const key = feedKeys.thread(id)
  const t = qc.getQueryData<Thread>(key)
  if (t) {
    const n = detail(t)
    if (n) qc.setQueryData(key, n)
    // Gone: read it again, so that a post on screen says so (a 404).
    else void qc.invalidateQueries({ queryKey: key, exact: true })
  }
}

/** Snapshot is what the caches held before an optimistic change. */
export type Snapshot = Array<[readonly unknown[], unknown]>

/** snapshotThread keeps the feed caches and the post's own, to roll back to. */
export function snapshotThread(qc: QueryClient, id: string): Snapshot {
  const feeds = qc.getQueriesData<FeedData>({ predicate: (q) => isFeedKey(q.queryKey) })
  return [...feeds, [feedKeys.thread(id), qc.getQueryData(feedKeys.thread(id))]]
}

export function restore(qc: QueryClient, snap: Snapshot) {
  for (const [key, data] of snap) qc.setQueryData(key, data)
}

/** cancelThreadQueries stops fetches that would overwrite an optimistic change. */
export async function cancelThreadQueries(qc: QueryClient, id: string) {
  await Promise.all([qc.cancelQueries({ predicate: (q) => isFeedKey(q.queryKey) }), qc.cancelQueries({ queryKey: feedKeys.thread(id), exact: true })])
}

/** invalidateThread refetches a post wherever it shows. */
export function invalidateThread(qc: QueryClient, id: string) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: feedKeys.thread(id), exact: true }),
    qc.invalidateQueries({ predicate: (q) => isFeedKey(q.queryKey) && !!mapFeedHas(q.state.data as FeedData | undefined, id) }),
  ])
}

function mapFeedHas(data: FeedData | undefined, id: string) {
  return data?.pages.some((p) => p.results.some((t) => t.id === id))
}
