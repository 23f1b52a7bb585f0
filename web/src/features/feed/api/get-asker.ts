import { useMutation } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'

export async function getAsker(threadId: string) {
  return unwrap(await api.GET('/api/threads/{threadId}/asker', { params: { path: { threadId } } }))
}

/**
 * useLookAtAsker asks who asked an anonymous question (forum admins). It is
 * a mutation, not a cached query: every look is recorded by the server,
 * so it is made only when the admin asks, and never kept or refetched.
 */
export function useLookAtAsker(threadId: string) {
  return useMutation({ mutationFn: () => getAsker(threadId), meta: { silent: true } })
}
