import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import { replaceChatMessage } from '../lib/chat-cache'
import type { ReactionKind } from './types'

/** useReactMeetupChat is PUT /api/meetings/{roomId}/chat/threads/{threadId}/reaction: set or clear the caller's reaction; the answer replaces the message. */
export function useReactMeetupChat(roomId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, reaction }: { id: string; reaction: ReactionKind | null }) =>
      unwrap(await api.PUT('/api/meetings/{roomId}/chat/threads/{threadId}/reaction', { params: { path: { roomId, threadId: id } }, body: { reaction } })),
    onSuccess: (m) => replaceChatMessage(qc, roomId, m),
  })
}
