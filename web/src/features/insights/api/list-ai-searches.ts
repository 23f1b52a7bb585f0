import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, type Period } from './keys'
import { LIST_PAGE_SIZE, nextPage } from './list-pages'

export type AISearchList = Schemas['AISearchList']

/** listAISearches is GET /api/insights/list/ai-searches/{seriesId}: the questions asked of the AI search, newest first. */
export async function listAISearches(seriesId: string, period: Period, page: number, signal?: AbortSignal): Promise<AISearchList> {
  return unwrap(
    await api.GET('/api/insights/list/ai-searches/{seriesId}', { params: { path: { seriesId }, query: { period, page, pageSize: LIST_PAGE_SIZE } }, signal }),
  )
}

/** aiSearchesQuery: ['insights', seriesId, 'list', 'ai-searches', {period}], page by page. */
export const aiSearchesQuery = (seriesId: string, period: Period) =>
  infiniteQueryOptions({
    queryKey: insightsKeys.list(seriesId, 'ai-searches', period),
    queryFn: ({ pageParam, signal }) => listAISearches(seriesId, period, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => nextPage(last, pages),
  })

export const useAISearches = (seriesId: string, period: Period, enabled = true) => useInfiniteQuery({ ...aiSearchesQuery(seriesId, period), enabled })
