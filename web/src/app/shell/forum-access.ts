import { useCallback } from 'react'
import { useMyCommunities } from '@/features/communities/api/get-my-communities'
import type { ForumAccess } from '@/features/meetups/components/meetup-summary'

/**
 * useForumAccess is the member's access to each forum of their community
 * list (its isSubscribed), for the Meet Ups' Subscribe instead of Go (spec
 * 000 §6): the Meet Up lists do not carry it. undefined for a forum the list
 * does not have.
 */
export function useForumAccess(): ForumAccess {
  const { data } = useMyCommunities()
  return useCallback(
    (seriesId: string) => {
      for (const c of data?.results ?? []) {
        const f = c.series.find((x) => x.id === seriesId)
        if (f) return f.isSubscribed
      }
      return undefined
    },
    [data],
  )
}
