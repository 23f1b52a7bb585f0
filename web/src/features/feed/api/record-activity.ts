import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type ActivityRequest = Schemas['ActivityRequest']

/** recordActivity is POST /api/activities: what the member did with a post or forum they read (spec 001 §7). */
export async function recordActivity(body: ActivityRequest) {
  return unwrap(await api.POST('/api/activities', { body }))
}

/**
 * useRecordView records once per opening that the member viewed a post on
 * its own page (a `viewed` activity), so that it is no longer new to them
 * (GET /api/sharedposts/new, ['sharedposts']), once the post is known to be
 * readable (`enabled`). A failure only leaves the post counted as new, so
 * it is logged.
 */
export function useRecordView(threadId: string, enabled: boolean) {
  const queryClient = useQueryClient()
  const recorded = useRef<string | undefined>(undefined)
  useEffect(() => {
    // The ref survives React's development double-run of effects.
    if (!enabled || recorded.current === threadId) return
    recorded.current = threadId
    recordActivity({ contextKey: `thread:${threadId}`, objectType: 'thread', verbType: 'viewed' }).then(
      () => queryClient.invalidateQueries({ queryKey: ['sharedposts'] }),
      (err: unknown) => console.warn('post view not recorded', err),
    )
  }, [enabled, threadId, queryClient])
}
