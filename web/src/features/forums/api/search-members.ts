import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type MemberMatch = Schemas['MemberMatch']

/** MEMBER_SEARCH_LIMIT: the member search shows up to 5 matches (spec 000 §2.7). */
export const MEMBER_SEARCH_LIMIT = 5

/**
 * searchMembers asks GET /api/communities/{communityId}/member-search: the
 * community's members whose first, last or full name matches q (a typo
 * allowed), best first, with the total of every match.
 */
export async function searchMembers(communityId: string, q: string, limit = MEMBER_SEARCH_LIMIT, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/communities/{communityId}/member-search', { params: { path: { communityId }, query: { q, limit } }, signal }))
}

/** memberSearchQuery: ['communities', communityId, 'member-search', {q, limit}]. */
export const memberSearchQuery = (communityId: string, q: string, limit = MEMBER_SEARCH_LIMIT) =>
  queryOptions({
    queryKey: ['communities', communityId, 'member-search', { q, limit }],
    queryFn: ({ signal }) => searchMembers(communityId, q, limit, signal),
    staleTime: 30_000,
  })

/** useMemberSearch searches while q is not empty; the caller debounces q (250 ms). */
export const useMemberSearch = (communityId: string, q: string, limit = MEMBER_SEARCH_LIMIT) =>
  useQuery({ ...memberSearchQuery(communityId, q, limit), enabled: q !== '', placeholderData: keepPreviousData })
