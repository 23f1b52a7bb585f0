import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

/** MentionCandidate is someone who may be mentioned (spec 001 §3): a forum member with an account. */
export type MentionCandidate = Schemas['MentionCandidate']

/** MENTION_LIMIT: suggestions asked for at once (the API's most). */
export const MENTION_LIMIT = 50

/**
 * getMentionCandidates asks GET /api/series/{id}/mention-candidates: the
 * forum's members with an account whose name matches q (the text typed
 * after '@'; a typo allowed), best match first; with q empty, by name.
 */
export async function getMentionCandidates(seriesId: string, q: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/series/{id}/mention-candidates', { params: { path: { id: seriesId }, query: { q, limit: MENTION_LIMIT } }, signal }))
}

/** mentionCandidatesQuery: ['series', id, 'mention-candidates', {q}]. */
export const mentionCandidatesQuery = (seriesId: string, q: string) =>
  queryOptions({
    queryKey: ['series', seriesId, 'mention-candidates', { q }],
    queryFn: ({ signal }) => getMentionCandidates(seriesId, q, signal),
    staleTime: 60_000,
  })

/**
 * useMentionCandidates suggests people while enabled; the caller debounces
 * q (spec 001 §9: 250 ms). The previous suggestions stay up while the next
 * ones load.
 */
export const useMentionCandidates = (seriesId: string, q: string, enabled: boolean) =>
  useQuery({ ...mentionCandidatesQuery(seriesId, q), enabled, placeholderData: keepPreviousData })
