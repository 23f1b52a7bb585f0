import { useSyncExternalStore } from 'react'

// Which conversation the chat tab shows: none (the list) or the one with a
// person. Not kept across reloads: the list is where the chat starts.

/** ChatPeer is who a conversation is with, as the header shows them. */
export type ChatPeer = { userId: string; firstName: string; lastName: string; avatar: string | null }

let current: ChatPeer | null = null
const listeners = new Set<() => void>()

/** openChat shows the conversation with peer (null: back to the list). */
export function openChat(peer: ChatPeer | null) {
  current = peer
  listeners.forEach((l) => l())
}

export function useOpenChat(): ChatPeer | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    () => current,
    () => current,
  )
}
