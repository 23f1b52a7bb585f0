import type { QueryClient } from '@tanstack/react-query'
import type { Schemas } from '@/api/client'
import { HUB_EVENTS, liveEvent, type HubMessage } from '@/api/hub-events'
import {
  addReply,
  editThread,
  feedKeys,
  isFeedKey,
  mapFeed,
  mapReply,
  removeReply,
  updateThreadEverywhere,
  type FeedData,
  type ReactionKind,
  type ReactionStats,
  type Reply,
  type Thread,
} from './thread-cache'

// The forum's live events (projections/realtime/forum.go; spec 001 §4 "Live
// thread events applied to the local view"), applied to the cached feed
// and post without reading them again. Each carries its post's channelId,
// which is how a feed knows the event is its own: the context key is the
// post's ("thread:<id>"), unknown to a feed before the post exists.

/** The post of thread.created and thread.updated: a Thread without the reader's own fields. */
export type ThreadPayload = Schemas['LiveThread']
/** The comment or reply of the reply events, with its post's place. */
export type ReplyPayload = Schemas['LiveReply']
/** A reaction set or cleared, with the counts after it. */
export type ReactedPayload = Schemas['LiveReaction']

/** FeedEvent is a forum event, read and typed. */
export type FeedEvent =
  | { kind: 'threadCreated' | 'threadUpdated'; thread: ThreadPayload }
  | { kind: 'threadDeleted'; id: string; channelId: string }
  | { kind: 'replyCreated' | 'replyUpdated' | 'replyDeleted'; reply: ReplyPayload }
  | { kind: 'reacted'; reacted: ReactedPayload }

/** The reader's view of who they are, for the fields an event leaves out. */
export type Reader = { userId: string | undefined; isForumAdmin: boolean }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null
const isStr = (v: unknown): v is string => typeof v === 'string'

/** readFeedEvent reads a hub message as a forum event, or undefined for any other. */
export function readFeedEvent(m: HubMessage): FeedEvent | undefined {
  const e = liveEvent(m)
  switch (e?.event) {
    case HUB_EVENTS.threadCreated:
    case HUB_EVENTS.threadUpdated: {
      // A private message shares the names; its channel has no feed, so
      // applying it changes nothing.
      const p = e.payload as ThreadPayload
      if (!isStr(p.id) || !isStr(p.channelId) || !isStr(p.raw) || !isStr(p.createdOn)) return undefined
      return { kind: e.event === HUB_EVENTS.threadCreated ? 'threadCreated' : 'threadUpdated', thread: p }
    }
    case HUB_EVENTS.threadDeleted:
      if (!isStr(e.payload.id) || !isStr(e.payload.channelId)) return undefined
      return { kind: 'threadDeleted', id: e.payload.id, channelId: e.payload.channelId }
    case HUB_EVENTS.replyCreated:
    case HUB_EVENTS.replyUpdated:
    case HUB_EVENTS.replyDeleted: {
      const p = e.payload
      if (!isStr(p.id) || !isStr(p.threadId) || !isStr(p.channelId)) return undefined
      const kind = e.event === HUB_EVENTS.replyCreated ? 'replyCreated' : e.event === HUB_EVENTS.replyUpdated ? 'replyUpdated' : 'replyDeleted'
      return { kind, reply: p }
    }
    case HUB_EVENTS.threadReacted: {
      const p = e.payload as ReactedPayload
      if (!isStr(p.threadId) || !isStr(p.channelId) || !isStr(p.userId) || !isObj(p.reactions)) return undefined
      return { kind: 'reacted', reacted: p }
    }
    default:
      return undefined
  }
}

/** eventChannel is the channel an event belongs to. */
export function eventChannel(e: FeedEvent): string {
  switch (e.kind) {
    case 'threadCreated':
    case 'threadUpdated':
      return e.thread.channelId
    case 'threadDeleted':
      return e.channelId
    case 'replyCreated':
    case 'replyUpdated':
    case 'replyDeleted':
      return e.reply.channelId
    case 'reacted':
      return e.reacted.channelId
  }
}

/** eventThread is the post an event is about. */
export function eventThread(e: FeedEvent): string {
  switch (e.kind) {
    case 'threadCreated':
    case 'threadUpdated':
      return e.thread.id
    case 'threadDeleted':
      return e.id
    case 'replyCreated':
    case 'replyUpdated':
    case 'replyDeleted':
      return e.reply.threadId
    case 'reacted':
      return e.reacted.threadId
  }
}

const EMPTY_REACTIONS: ReactionStats = { liked: 0, loved: 0, smiled: 0, disliked: 0, neutral: 0, totalCount: 0 }

/** newThread is a created post as this reader's feed shows it. */
export function newThread(p: ThreadPayload, reader: Reader): Thread {
  return {
    ...p,
    // An older event may carry no chat: other posts have none.
    chat: p.chat ?? null,
    reactions: p.reactions ?? EMPTY_REACTIONS,
    myReaction: null,
    canManage: reader.isForumAdmin || (!!reader.userId && p.creatorId === reader.userId),
    // An anonymous question's event does not say who asked, not even to
    // the asker: the asker's own copy comes from the API, with isMine.
    isMine: !!reader.userId && p.creatorId === reader.userId,
    repliesCount: 0,
    commentsCount: 0,
    replies: [],
  }
}

/** newReply is a created comment or reply as this reader sees it. */
export function newReply(p: ReplyPayload, reader: Reader): Reply {
  const { channelId: _c, seriesId: _s, ...rest } = p
  return {
    ...rest,
    creator: p.creator ?? { userId: p.creatorId, firstName: '', lastName: '', avatar: null, isExpert: false },
    reactions: p.reactions ?? EMPTY_REACTIONS,
    myReaction: null,
    canManage: reader.isForumAdmin || p.creatorId === reader.userId,
    repliesCount: 0,
    replies: [],
  }
}

/**
 * reduceThread applies an event about a post to it: null when it is gone.
 * `complete` says the post holds all its comments (its own query) rather
 * than the feed's featured one.
 */
export function reduceThread(t: Thread, e: FeedEvent, reader: Reader, complete: boolean): Thread | null {
  switch (e.kind) {
    case 'threadCreated':
      return t
    case 'threadUpdated':
      return editThread(t, e.thread)
    case 'threadDeleted':
      return null
    case 'replyCreated':
      return addReply(t, newReply(e.reply, reader), complete)
    case 'replyUpdated': {
      const { raw, mentions, hashtags, updatedOn, reactions } = e.reply
      return mapReply(t, e.reply.id, (r) => ({ ...r, raw, mentions, hashtags, updatedOn, ...(reactions ? { reactions } : {}) }))
    }
    case 'replyDeleted':
      return removeReply(t, e.reply.id)
    case 'reacted': {
      const { replyId, userId, reaction, reactions } = e.reacted
      const set = <T extends { reactions: ReactionStats; myReaction: ReactionKind | null }>(x: T): T => ({
        ...x,
        reactions,
        myReaction: userId === reader.userId ? reaction : x.myReaction,
      })
      return replyId ? mapReply(t, replyId, set) : set(t)
    }
  }
}

/**
 * reduceFeed applies an event to a channel's loaded pages. A new post goes
 * at the top of the first page (it is the newest); a post the feed has not
 * loaded is left for its page to bring.
 */
export function reduceFeed(data: FeedData | undefined, e: FeedEvent, reader: Reader): FeedData | undefined {
  if (!data) return data
  if (e.kind === 'threadCreated') {
    if (data.pages.some((p) => p.results.some((t) => t.id === e.thread.id))) return data
    const [first, ...rest] = data.pages
    if (!first) return data
    return { ...data, pages: [{ ...first, results: [newThread(e.thread, reader), ...first.results] }, ...rest] }
  }
  return mapFeed(data, eventThread(e), (t) => reduceThread(t, e, reader, false))
}

/** applyFeedEvent applies an event to every cache that shows its post. */
export function applyFeedEvent(qc: QueryClient, e: FeedEvent, reader: Reader) {
  if (e.kind === 'threadCreated') {
    qc.setQueryData<FeedData>(feedKeys.channel(e.thread.channelId), (d) => reduceFeed(d, e, reader))
    // And the channel's feeds of a hashtag the post carries.
    const tags = new Set((e.thread.hashtags ?? []).map((h) => h.toLowerCase()))
    for (const [key] of qc.getQueriesData<FeedData>({ queryKey: feedKeys.channel(e.thread.channelId) })) {
      const tag = (key[3] as { hashtag?: string } | undefined)?.hashtag
      if (isFeedKey(key) && tag && tags.has(tag.toLowerCase())) qc.setQueryData<FeedData>(key, (d) => reduceFeed(d, e, reader))
    }
    return
  }
  updateThreadEverywhere(
    qc,
    eventThread(e),
    (t) => reduceThread(t, e, reader, false),
    (t) => reduceThread(t, e, reader, true),
  )
}
