import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type CommunityMember = Schemas['CommunityMember']

/** The member list reads 25 a page, as the forum's does. */
export const COMMUNITY_MEMBERS_PAGE_SIZE = 25

/**
 * communityMembersQuery: ['communities', id, 'members', keyword], page by
 * page: without a keyword the caller first, then experts, then by name;
 * with one, the people the member index finds, best match first (a typo
 * forgiven).
 */
export const communityMembersQuery = (communityId: string, keyword: string) =>
  infiniteQueryOptions({
    queryKey: ['communities', communityId, 'members', keyword],
    queryFn: async ({ pageParam, signal }) =>
      unwrap(
        await api.GET('/api/communities/{communityId}/members', {
          params: { path: { communityId }, query: { page: pageParam, pageSize: COMMUNITY_MEMBERS_PAGE_SIZE, ...(keyword ? { keyword } : {}) } },
          signal,
        }),
      ),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * COMMUNITY_MEMBERS_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  })

export const useCommunityMembers = (communityId: string, keyword: string, enabled: boolean) =>
  useInfiniteQuery({ ...communityMembersQuery(communityId, keyword), enabled })
