import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { api, unwrap, type Schemas } from '@/api/client'
import { toast } from '@/components/ui/toast'
import { feedKeys, type Thread } from '../lib/thread-cache'

/** ThreadCreateBody is a new post; `meeting` is left out (openapi-fetch types the always-null field as absent). */
export type ThreadCreateBody = Omit<Schemas['ThreadCreateRequest'], 'meeting'>

export async function createThread(seriesId: string, body: ThreadCreateBody): Promise<Thread> {
  return unwrap(await api.POST('/api/series/{seriesId}/threads', { params: { path: { seriesId } }, body })) as Thread
}

/**
 * useCreateThread posts or asks in a forum channel, then invalidates that
 * channel's feed (feedKeys.channel) so that the new post shows at its top.
 * A failure is logged and shows feedPostCreating (spec 001 §8); the caller
 * gets it too, through mutate's callbacks.
 */
export function useCreateThread(seriesId: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ThreadCreateBody) => createThread(seriesId, body),
    meta: { silent: true },
    onSuccess: (thread) => queryClient.invalidateQueries({ queryKey: feedKeys.channel(thread.channelId) }),
    onError: (e) => {
      console.error('post creation failed', e)
      toast({ title: i18n.t('global:error.feedPostCreating'), variant: 'destructive' })
    },
  })
}
