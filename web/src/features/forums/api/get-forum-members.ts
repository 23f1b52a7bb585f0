import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type ForumMember = Schemas['ForumMember']
type Params = { page?: number; pageSize?: number; sort?: 'isExpert desc'; roleName?: Schemas['ForumAssignableRole'] }

export async function getForumMembers(id: string, query: Params, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/series/{id}/members', { params: { path: { id }, query }, signal }))
}

/** The header strip: the first three members, experts first, and the total (spec 001 §2, §9). */
const strip: Params = { page: 1, pageSize: 3, sort: 'isExpert desc' }

/** forumMembersStripQuery: ['series', id, 'members', {page: 1, pageSize: 3, sort}]. */
export const forumMembersStripQuery = (id: string) =>
  queryOptions({ queryKey: ['series', id, 'members', strip], queryFn: ({ signal }) => getForumMembers(id, strip, signal) })

export const useForumMembersStrip = (id: string) => useQuery(forumMembersStripQuery(id))

/**
 * forumAdminsQuery: ['series', id, 'members', {roleName: 'admin', …}], the
 * forum's admins (experts included), to know whether the user is one of
 * them: the last-admin rule depends on it.
 */
const admins: Params = { page: 1, pageSize: 9999, roleName: 'admin' }
export const forumAdminsQuery = (id: string) =>
  queryOptions({ queryKey: ['series', id, 'members', admins], queryFn: ({ signal }) => getForumMembers(id, admins, signal) })

export const useForumAdmins = (id: string, enabled = true) => useQuery({ ...forumAdminsQuery(id), enabled })

/** The members dialog reads 25 a page, experts first. */
export const MEMBERS_PAGE_SIZE = 25

/** forumMembersListQuery: ['series', id, 'members', 'list'], page by page. */
export const forumMembersListQuery = (id: string) =>
  infiniteQueryOptions({
    queryKey: ['series', id, 'members', 'list'],
    queryFn: ({ pageParam, signal }) => getForumMembers(id, { page: pageParam, pageSize: MEMBERS_PAGE_SIZE, sort: 'isExpert desc' }, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (pages.length * MEMBERS_PAGE_SIZE < last.total ? pages.length + 1 : undefined),
  })

export const useForumMembersList = (id: string, enabled: boolean) => useInfiniteQuery({ ...forumMembersListQuery(id), enabled })
