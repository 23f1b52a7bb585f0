import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type NewPostsInForum = Schemas['NewPostsInForum']

/** getNewPosts is GET /api/sharedposts/new: the forums of a community with posts new to the caller. */
export async function getNewPosts(communityId: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/sharedposts/new', { params: { query: { communityId } }, signal }))
}

/**
 * newPostsQuery: ['sharedposts', 'new', communityId], how many posts of each
 * forum are new to the member (spec 001 §7). Never fresh for long: a visit
 * to a forum clears its count, and coming back to the community should show it.
 */
export const newPostsQuery = (communityId: string) =>
  queryOptions({
    queryKey: ['sharedposts', 'new', communityId],
    queryFn: ({ signal }) => getNewPosts(communityId, signal),
    staleTime: 0,
  })

export const useNewPosts = (communityId: string) => useQuery(newPostsQuery(communityId))
