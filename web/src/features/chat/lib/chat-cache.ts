import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, LIVE_KEYS, liveEvent, type HubMessage, type LivePayloads } from '@/api/hub-events'
import type { ChatMessage, ChatMessagePage, PrivateChannel, PrivateChannelList } from '../api/types'

// The private chat's caches and its live events (thread.* with context key
// `channel:<channelId>`, and private.channel.seen), applied in place as the
// feed applies its own, so an open conversation and the unread dots follow
// without reading everything again. The chat's reminders live in the
// personalization, whose live update lib/personalization applies.

export const chatKeys = {
  channels: ['chat', 'channels'] as const,
  // Under channels, so that what reads the channels again or updates them
  // (mapChannels) also does the conversation's own channel.
  peerChannel: (peerId: string) => ['chat', 'channels', 'peer', peerId] as const,
  messages: (channelId: string) => ['chat', 'messages', channelId] as const,
}

/** The dismissed new-message reminders' key (spec 002 §3 Reminder preferences). */
export const DISMISSED_KEY = 'reminders.newMessages.dismissed'

type Messages = InfiniteData<ChatMessagePage, string | undefined>

const isStr = (v: unknown): v is string => typeof v === 'string'

/** ChatEvent is a private chat's live event, read and typed. */
export type ChatEvent =
  | { kind: 'created' | 'updated' | 'reacted'; message: ChatMessage }
  | { kind: 'deleted'; id: string; channelId: string }
  | { kind: 'seen'; channelId: string; lastSeenOn: string }

/**
 * readChatEvent reads a hub message as a private chat event, or undefined.
 * A forum's thread events share the names but not the context key
 * (theirs is the post's), so the key tells them apart.
 */
export function readChatEvent(m: HubMessage): ChatEvent | undefined {
  const e = liveEvent(m)
  switch (e?.event) {
    case HUB_EVENTS.threadCreated:
    case HUB_EVENTS.threadUpdated:
    case HUB_EVENTS.threadReacted:
    case HUB_EVENTS.threadDeleted: {
      // With a channel's context key the payload is the private chat's (a
      // ChatMessage, or a reference for a deletion), not the forum's.
      const p = e.payload as ChatMessage | LivePayloads['thread.deleted']
      if (!isStr(p.id) || !isStr(p.channelId) || m.contextKey !== LIVE_KEYS.channel(p.channelId)) return undefined
      if (e.event === HUB_EVENTS.threadDeleted) return { kind: 'deleted', id: p.id, channelId: p.channelId }
      const message = p as ChatMessage
      // A Meet Up chat's message (roomId) is the Meet Up screen's.
      if (message.roomId || !isStr(message.raw) || !isStr(message.createdOn) || !isStr(message.creatorId)) return undefined
      const kind = e.event === HUB_EVENTS.threadCreated ? 'created' : e.event === HUB_EVENTS.threadUpdated ? 'updated' : 'reacted'
      // An older node's message may come without its reactions.
      return { kind, message: { ...message, reactions: message.reactions ?? {} } }
    }
    case HUB_EVENTS.channelSeen:
      return isStr(e.payload.channelId) && isStr(e.payload.lastSeenOn) ? { kind: 'seen', channelId: e.payload.channelId, lastSeenOn: e.payload.lastSeenOn } : undefined
    default:
      return undefined
  }
}

function mapMessages(qc: QueryClient, channelId: string, f: (pages: ChatMessagePage[]) => ChatMessagePage[]) {
  qc.setQueryData<Messages>(chatKeys.messages(channelId), (data) => (data ? { ...data, pages: f(data.pages) } : data))
}

/** addMessage puts a new message first (newest) in its conversation, once. */
export function addMessage(qc: QueryClient, m: ChatMessage) {
  mapMessages(qc, m.channelId, (pages) => {
    if (pages.some((p) => p.results.some((x) => x.id === m.id))) return pages.map((p) => ({ ...p, results: p.results.map((x) => (x.id === m.id ? m : x)) }))
    const [first, ...rest] = pages
    return first ? [{ results: [m, ...first.results], total: first.total + 1 }, ...rest] : pages
  })
}

/** replaceMessage puts an edited or reacted message in place. */
export function replaceMessage(qc: QueryClient, m: ChatMessage) {
  mapMessages(qc, m.channelId, (pages) => pages.map((p) => (p.results.some((x) => x.id === m.id) ? { ...p, results: p.results.map((x) => (x.id === m.id ? m : x)) } : p)))
}

export function removeMessage(qc: QueryClient, channelId: string, id: string) {
  mapMessages(qc, channelId, (pages) => pages.map((p) => (p.results.some((x) => x.id === id) ? { results: p.results.filter((x) => x.id !== id), total: p.total - 1 } : p)))
}

/**
 * mapChannels updates the channel list and each conversation's channel
 * (chatKeys.peerChannel). A list f leaves as it was is not set again, which
 * would make it fresh though it may wait to be read again.
 */
function mapChannels(qc: QueryClient, f: (c: PrivateChannel) => PrivateChannel) {
  qc.setQueriesData<PrivateChannelList>({ queryKey: chatKeys.channels }, (l) => {
    const results = l?.results.map(f)
    return l && results?.some((c, i) => c !== l.results[i]) ? { ...l, results } : undefined
  })
}

export function setChannelSeen(qc: QueryClient, channelId: string, lastSeenOn: string) {
  mapChannels(qc, (c) => (c.id === channelId ? { ...c, hasUnread: false, lastSeenOn } : c))
}

/** unreadChannels are the channels whose latest message is the peer's and not seen. */
export const unreadChannels = (l: PrivateChannelList | undefined): PrivateChannel[] => l?.results.filter((c) => c.hasUnread) ?? []

/**
 * applyChatEvent applies a private chat event to the cached conversation
 * and channels; it says whether the event was one. A message of a channel
 * the list does not have yet (a first message) reads the list again.
 */
export function applyChatEvent(qc: QueryClient, m: HubMessage): boolean {
  const e = readChatEvent(m)
  if (!e) return false
  switch (e.kind) {
    case 'created': {
      addMessage(qc, e.message)
      const { id, creatorId, raw, createdOn, isMine, channelId } = e.message
      const knows = (l: PrivateChannelList | undefined) => !!l?.results.some((c) => c.id === channelId)
      mapChannels(qc, (c) => (c.id === channelId ? { ...c, latestThread: { id, creatorId, raw, createdOn }, hasUnread: !isMine } : c))
      // The newest activity comes first, as the server lists them.
      qc.setQueryData<PrivateChannelList>(chatKeys.channels, (l) => {
        if (!l || !knows(l)) return l
        const c = l.results.find((x) => x.id === channelId)!
        return { ...l, results: [c, ...l.results.filter((x) => x !== c)] }
      })
      // A list without the channel (a first message, or a channel older than
      // the list's page) is read again.
      void qc.invalidateQueries({ queryKey: chatKeys.channels, predicate: (q) => !knows(q.state.data as PrivateChannelList | undefined) })
      break
    }
    case 'updated':
    case 'reacted':
      replaceMessage(qc, e.message)
      if (e.kind === 'updated') mapChannels(qc, (c) => (c.latestThread?.id === e.message.id ? { ...c, latestThread: { ...c.latestThread, raw: e.message.raw } } : c))
      break
    case 'deleted':
      removeMessage(qc, e.channelId, e.id)
      if (qc.getQueryData<PrivateChannelList>(chatKeys.channels)?.results.some((c) => c.latestThread?.id === e.id)) void qc.invalidateQueries({ queryKey: chatKeys.channels })
      break
    case 'seen':
      setChannelSeen(qc, e.channelId, e.lastSeenOn)
      break
  }
  return true
}
