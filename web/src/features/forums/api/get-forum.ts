import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type Forum = Schemas['Forum']

export async function getForum(id: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/series/{id}', { params: { path: { id } }, signal }))
}

/**
 * forumQuery: ['series', id]. The forum query is never stale (spec 001 §9):
 * role, exclusivity and subscription decide what the page shows, so every
 * opening reads them again.
 */
export const forumQuery = (id: string) =>
  queryOptions({ queryKey: ['series', id], queryFn: ({ signal }) => getForum(id, signal), staleTime: 0 })

export const useForum = (id: string) => useQuery(forumQuery(id))
