import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { looseApi, unwrap } from '@/api/client'
import type { CommunityAssignableList } from './types'

export const ASSIGNABLES_PAGE_SIZE = 50

export type AssignablesFilter = { keyword: string; presetFilter: '' | 'assigned' | 'unassigned'; filters: '' | 'role:admin' | 'role:member'; sort: string }

export async function getCommunityAssignables(communityId: string, f: AssignablesFilter, page: number, signal?: AbortSignal) {
  const query: Record<string, string | number> = { page, pageSize: ASSIGNABLES_PAGE_SIZE }
  for (const k of ['keyword', 'presetFilter', 'filters', 'sort'] as const) if (f[k]) query[k] = f[k]
  return unwrap<CommunityAssignableList>(await looseApi.GET('/api/communities/{id}/assignables', { params: { path: { id: communityId }, query }, signal }))
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
