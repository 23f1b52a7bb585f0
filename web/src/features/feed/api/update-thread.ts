import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { api, unwrap, type Schemas } from '@/api/client'
import { toast } from '@/components/ui/toast'
import { editThread, updateThreadEverywhere, type Thread } from '../lib/thread-cache'

/** ThreadEditBody is a post edit; `meeting` is left out (openapi-fetch types the always-null field as absent). */
export type ThreadEditBody = Omit<Schemas['ThreadUpdateRequest'], 'meeting'>

export async function updateThread(threadId: string, body: ThreadEditBody): Promise<Thread> {
  return unwrap(await api.PATCH('/api/threads/{threadId}', { params: { path: { threadId } }, body })) as Thread
}

/** useUpdateThread edits a post; a failure shows feedPostUpdating (spec 001 §8). */
export function useUpdateThread(threadId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: ThreadEditBody) => updateThread(threadId, body),
    meta: { silent: true },
    onSuccess: (t) => updateThreadEverywhere(qc, threadId, (old) => editThread(old, t)),
    onError: () => toast({ title: i18n.t('global:error.feedPostUpdating'), variant: 'destructive' }),
  })
}
