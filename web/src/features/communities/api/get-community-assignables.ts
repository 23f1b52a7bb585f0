import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap } from '@/api/client'
import type { paths } from '@/api/schema'

export const ASSIGNABLES_PAGE_SIZE = 50

type Query = NonNullable<paths['/api/communities/{communityId}/assignables']['get']['parameters']['query']>

/** AssignablesFilter is the list's filter; '' leaves a parameter out. */
export type AssignablesFilter = {
  keyword: string
  presetFilter: NonNullable<Query['presetFilter']> | ''
  filters: '' | 'role:admin' | 'role:member'
  sort: NonNullable<Query['sort']> | ''
}

export async function getCommunityAssignables(communityId: string, f: AssignablesFilter, page: number, signal?: AbortSignal) {
  const query: Query = { page, pageSize: ASSIGNABLES_PAGE_SIZE }
  if (f.keyword) query.keyword = f.keyword
  if (f.presetFilter) query.presetFilter = f.presetFilter
  if (f.filters) query.filters = f.filters
  if (f.sort) query.sort = f.sort
  return unwrap(await api.GET('/api/communities/{communityId}/assignables', { params: { path: { communityId }, query }, signal }))
}

/**
 * communityAssignablesQuery: ['community', id, 'assignables', filter], the
 * organization's people with their role in the community, 50 a page (the
 * caller first on page 1). A new filter is a new list, and leaving one
 * cancels its request in flight (spec 000 §4).
 */
export const communityAssignablesQuery = (communityId: string, f: AssignablesFilter) =>
  infiniteQueryOptions({
    queryKey: ['community', communityId, 'assignables', f],
    queryFn: ({ pageParam, signal }) => getCommunityAssignables(communityId, f, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * ASSIGNABLES_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  })

export const useCommunityAssignables = (communityId: string, f: AssignablesFilter) => useInfiniteQuery(communityAssignablesQuery(communityId, f))
