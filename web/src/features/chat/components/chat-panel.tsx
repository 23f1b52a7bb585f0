import type { ReactNode } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useHubEvents } from '@/lib/hub'
import { channelsQuery } from '../api/list-channels'
import { applyChatEvent, chatKeys } from '../lib/chat-cache'
import { useOpenChat } from '../lib/open-chat'
import { ChatList } from './chat-list'
import { Conversation } from './conversation'

/** ChatPanel is the chat tab: the list, or the conversation opened from it. */
export function ChatPanel({ peersKey, meControls }: { peersKey: readonly unknown[]; meControls?: ReactNode }) {
  const peer = useOpenChat()
  return peer ? <Conversation key={peer.userId} peer={peer} /> : <ChatList peersKey={peersKey} meControls={meControls} />
}

/** useChatLive applies the private chat's live events wherever the member is; chat read before a connection went live is read again (useHubEvents). */
export function useChatLive() {
  const qc = useQueryClient()
  useHubEvents(
    '*',
    (m) => void applyChatEvent(qc, m),
    (missed) => void qc.invalidateQueries({ queryKey: ['chat'], predicate: missed }),
  )
}

/** useUnreadChats is the member's channels with an unread message, and whether any peer is one of them. */
export function useUnreadChats() {
  const channels = useQuery({ ...channelsQuery(), staleTime: 30_000 })
  const unread = channels.data?.results.filter((c) => c.hasUnread) ?? []
  const peers = new Set(unread.map((c) => c.peer.userId))
  return { unread, isUnreadPeer: (p: { userId: string }) => peers.has(p.userId) }
}

export { chatKeys }
