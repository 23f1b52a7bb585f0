import type { InfiniteData, QueryClient } from '@tanstack/react-query'
import { HUB_EVENTS, LIVE_KEYS, liveEvent, type HubMessage, type LivePayloads } from '@/api/hub-events'
import { meetingKeys } from '../api/keys'
import type { ChatMessage, ChatMessagePage } from '../api/types'

// The Meet Up chat's cache (meetingKeys.chat) and its live events: the
// private chat's thread.* with context key `channel:<channelId>`, whose
// message names the Meet Up (roomId). A deletion names only the message,
// which is removed wherever this chat holds it.

type Pages = InfiniteData<ChatMessagePage, string | undefined>

const isStr = (v: unknown): v is string => typeof v === 'string'

/** MeetupChatEvent is a live event of a Meet Up's chat, read and typed. */
export type MeetupChatEvent = { kind: 'created' | 'updated' | 'reacted'; message: ChatMessage } | { kind: 'deleted'; id: string }

/** readMeetupChatEvent reads a hub message as an event of the Meet Up roomId's chat, or undefined. */
export function readMeetupChatEvent(m: HubMessage, roomId: string): MeetupChatEvent | undefined {
  const e = liveEvent(m)
  switch (e?.event) {
    case HUB_EVENTS.threadCreated:
    case HUB_EVENTS.threadUpdated:
    case HUB_EVENTS.threadReacted:
    case HUB_EVENTS.threadDeleted: {
      const p = e.payload as ChatMessage | LivePayloads['thread.deleted']
      if (!isStr(p.id) || !isStr(p.channelId) || m.contextKey !== LIVE_KEYS.channel(p.channelId)) return undefined
      if (e.event === HUB_EVENTS.threadDeleted) return { kind: 'deleted', id: p.id }
      const message = p as ChatMessage
      if (message.roomId !== roomId || !isStr(message.raw) || !isStr(message.createdOn)) return undefined
      const kind = e.event === HUB_EVENTS.threadCreated ? 'created' : e.event === HUB_EVENTS.threadUpdated ? 'updated' : 'reacted'
      return { kind, message: { ...message, reactions: message.reactions ?? {} } }
    }
    default:
      return undefined
  }
}

function mapPages(qc: QueryClient, roomId: string, f: (pages: ChatMessagePage[]) => ChatMessagePage[]) {
  qc.setQueryData<Pages>(meetingKeys.chat(roomId), (data) => (data ? { ...data, pages: f(data.pages) } : data))
}

/** addChatMessage puts a new message first (newest) in the chat, once. */
export function addChatMessage(qc: QueryClient, roomId: string, m: ChatMessage) {
  mapPages(qc, roomId, (pages) => {
    if (pages.some((p) => p.results.some((x) => x.id === m.id))) return pages.map((p) => ({ ...p, results: p.results.map((x) => (x.id === m.id ? m : x)) }))
    const [first, ...rest] = pages
    return first ? [{ results: [m, ...first.results], total: first.total + 1 }, ...rest] : pages
  })
}

/** replaceChatMessage puts an edited or reacted message in place. */
export function replaceChatMessage(qc: QueryClient, roomId: string, m: ChatMessage) {
  mapPages(qc, roomId, (pages) => pages.map((p) => (p.results.some((x) => x.id === m.id) ? { ...p, results: p.results.map((x) => (x.id === m.id ? m : x)) } : p)))
}

export function removeChatMessage(qc: QueryClient, roomId: string, id: string) {
  mapPages(qc, roomId, (pages) => pages.map((p) => (p.results.some((x) => x.id === id) ? { results: p.results.filter((x) => x.id !== id), total: p.total - 1 } : p)))
}

/** applyMeetupChatEvent applies an event to the chat's cache and answers it (undefined when the hub message is not one). */
export function applyMeetupChatEvent(qc: QueryClient, roomId: string, m: HubMessage): MeetupChatEvent | undefined {
  const e = readMeetupChatEvent(m, roomId)
  if (!e) return undefined
  if (e.kind === 'created') addChatMessage(qc, roomId, e.message)
  else if (e.kind === 'deleted') removeChatMessage(qc, roomId, e.id)
  else replaceChatMessage(qc, roomId, e.message)
  return e
}
