import { useMutation, useQueryClient } from '@tanstack/react-query'
import i18n from '@/i18n'
import { api, unwrap } from '@/api/client'
import { toast } from '@/components/ui/toast'
import { updateThreadEverywhere } from '../lib/thread-cache'

export async function deleteThread(threadId: string) {
  return unwrap(await api.DELETE('/api/threads/{threadId}', { params: { path: { threadId } } }))
}

/** useDeleteThread deletes a post; a failure shows feedPostDeleting (spec 001 §8). */
export function useDeleteThread(threadId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => deleteThread(threadId),
    meta: { silent: true },
    onSuccess: () => updateThreadEverywhere(qc, threadId, () => null),
    onError: () => toast({ title: i18n.t('global:error.feedPostDeleting'), variant: 'destructive' }),
  })
}
