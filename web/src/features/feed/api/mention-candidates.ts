import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type ForumMemberList = Schemas['ForumMemberList']

/** MentionCandidate is someone who may be mentioned (spec 001 §3): a forum member with an account. */
export type MentionCandidate = Pick<Schemas['ForumMember'], 'firstName' | 'lastName' | 'avatar' | 'jobTitle' | 'company'> & {
  userId: string
}

// Everyone in one page: the spec's size for whole member lists is 9999
// (spec 001 §9), and the editor filters as the user types.
const params = { page: 1, pageSize: 9999 }

export async function getForumMembers(seriesId: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/series/{id}/members', { params: { path: { id: seriesId }, query: params }, signal }))
}

// Invited people without an account yet cannot be mentioned: a mention
// names a user id.
export const toMentionCandidates = (list: ForumMemberList): MentionCandidate[] =>
  list.results.flatMap((m) => (m.userId ? [{ ...m, userId: m.userId }] : []))

/**
 * mentionCandidatesQuery: ['series', id, 'members', {page, pageSize}]. The
 * cache holds the API's answer as is (another screen may read the same
 * page); the hook selects the candidates.
 */
export const mentionCandidatesQuery = (seriesId: string) =>
  queryOptions({
    queryKey: ['series', seriesId, 'members', params],
    queryFn: ({ signal }) => getForumMembers(seriesId, signal),
    staleTime: 300_000,
  })

export const useMentionCandidates = (seriesId: string, enabled = true) =>
  useQuery({ ...mentionCandidatesQuery(seriesId), enabled, select: toMentionCandidates })
