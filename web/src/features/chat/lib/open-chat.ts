import { memoryStore } from '@/lib/memory-store'

// Which conversation the chat tab shows: none (the list) or the one with a
// person. Not kept across reloads: the list is where the chat starts.

/** ChatPeer is who a conversation is with, as the header shows them. */
export type ChatPeer = { userId: string; firstName: string; lastName: string; avatar: string | null }

const current = memoryStore<ChatPeer | null>(null)

/** openChat shows the conversation with peer (null: back to the list). */
export const openChat = (peer: ChatPeer | null) => current.set(peer)

export const useOpenChat = current.use
