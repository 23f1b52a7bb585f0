import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type SharedChatPost = Schemas['Thread']

/** shareChat posts a search's conversation to the channel as a shared-ai-chat post (POST /api/ai-response/share-chat). */
export async function shareChat(channelId: string, searchId: string): Promise<SharedChatPost> {
  return unwrap(await api.POST('/api/ai-response/share-chat', { body: { channelId, searchId } })) as SharedChatPost
}

/**
 * useShareChat shares, then refetches the channel's feed (spec 001 §4: the
 * new post shows at once, even before its live event). The feed's key is
 * ['channels', channelId, 'threads'] (features/feed/lib/thread-cache.ts
 * feedKeys.channel), named here rather than imported: features do not
 * import each other.
 */
export function useShareChat(channelId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (searchId: string) => shareChat(channelId, searchId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['channels', channelId, 'threads'] }),
  })
}
