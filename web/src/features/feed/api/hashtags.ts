import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'

export type Hashtag = Schemas['Hashtag']

export async function getHashtags(q: string, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/hashtags', { params: { query: { q } }, signal }))
}

/** hashtagsQuery: ['hashtags', {q}], the suggestions for a typed prefix (without '#'). */
export const hashtagsQuery = (q: string) =>
  queryOptions({
    queryKey: ['hashtags', { q }],
    queryFn: ({ signal }) => getHashtags(q, signal),
    staleTime: 60_000,
  })

/** useHashtags suggests hashtags while enabled; the caller debounces q (spec 001 §9: 250 ms). */
export const useHashtags = (q: string, enabled: boolean) => useQuery({ ...hashtagsQuery(q), enabled, placeholderData: keepPreviousData })
