import { useEffect, useRef } from 'react'
import { queryOptions, skipToken, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type ForumVisit = Schemas['VisitBody']

/** recordVisit records a visit now and returns the previous one (POST /api/series/{id}/visits). */
export async function recordVisit(seriesId: string) {
  return unwrap(await api.POST('/api/series/{seriesId}/visits', { params: { path: { seriesId } } }))
}

/**
 * forumVisitQuery: ['series', seriesId, 'visits'] → {previouslyVisitedOn},
 * the visit before this opening of the forum, for the feed's unread marker
 * (spec 001 §4 Visits). Read it with `useQuery(...)` on this key; it is
 * pending until the visit is recorded.
 *
 * The forum page fills it (useRecordVisit). It has no fetcher of its own
 * (skipToken) on purpose: reading again would either record another visit
 * (POST) or return the one just recorded (GET), both of which would clear
 * every unread marker, so invalidating ['series', id] leaves it alone.
 */
export const forumVisitQuery = (seriesId: string) =>
  queryOptions<ForumVisit>({ queryKey: ['series', seriesId, 'visits'], queryFn: skipToken, staleTime: Infinity })

export const useForumVisit = (seriesId: string) => useQuery(forumVisitQuery(seriesId))

/**
 * useRecordVisit records one visit per opening of the forum, once it is
 * known to be readable (`enabled`), and keeps the previous visit in
 * forumVisitQuery. A failure only loses the unread marker, so it is logged.
 */
export function useRecordVisit(seriesId: string, enabled: boolean) {
  const queryClient = useQueryClient()
  const recorded = useRef<string | undefined>(undefined)
  useEffect(() => {
    // The ref survives React's development double-run of effects, so one
    // opening is one visit.
    if (!enabled || recorded.current === seriesId) return
    recorded.current = seriesId
    const { queryKey } = forumVisitQuery(seriesId)
    // A value left from an earlier opening is not this opening's.
    void queryClient.resetQueries({ queryKey, exact: true })
    recordVisit(seriesId).then(
      (visit) => {
        queryClient.setQueryData(queryKey, visit)
        // The visit is its community's too (lastVisitedOn: Home's New
        // ribbon and Visited filter): the member's list says so now,
        // without being read again.
        const now = new Date().toISOString()
        queryClient.setQueriesData<{ results: Schemas['Community'][] }>({ queryKey: ['communities', 'mine'] }, (old) =>
          old ? { ...old, results: old.results.map((c) => (c.series.some((f) => f.id === seriesId) ? { ...c, lastVisitedOn: now } : c)) } : old,
        )
      },
      (err: unknown) => console.warn('forum visit not recorded', err),
    )
  }, [enabled, seriesId, queryClient])
}
