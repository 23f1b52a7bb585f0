import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, type Period } from './keys'
import { LIST_PAGE_SIZE, nextPage } from './list-pages'

export type AskedQuestionList = Schemas['AskedQuestionList']

/** listAskedQuestions is GET /api/insights/list/asked-questions/{seriesId}: the period's question posts, newest first. */
export async function listAskedQuestions(seriesId: string, period: Period, page: number, signal?: AbortSignal): Promise<AskedQuestionList> {
  return unwrap(
    await api.GET('/api/insights/list/asked-questions/{seriesId}', { params: { path: { seriesId }, query: { period, page, pageSize: LIST_PAGE_SIZE } }, signal }),
  )
}

/** askedQuestionsQuery: ['insights', seriesId, 'list', 'asked-questions', {period}], page by page. */
export const askedQuestionsQuery = (seriesId: string, period: Period) =>
  infiniteQueryOptions({
    queryKey: insightsKeys.list(seriesId, 'asked-questions', period),
    queryFn: ({ pageParam, signal }) => listAskedQuestions(seriesId, period, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => nextPage(last, pages),
  })

export const useAskedQuestions = (seriesId: string, period: Period, enabled = true) => useInfiniteQuery({ ...askedQuestionsQuery(seriesId, period), enabled })
