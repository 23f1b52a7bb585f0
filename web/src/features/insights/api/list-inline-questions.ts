import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, type Period } from './keys'
import { LIST_PAGE_SIZE, nextPage } from './list-pages'

export type InlineQuestionList = Schemas['InlineQuestionList']

/** listInlineQuestions is GET /api/insights/list/inline-questions/{seriesId}: the comments and replies that asked questions, newest first. */
export async function listInlineQuestions(seriesId: string, period: Period, page: number, signal?: AbortSignal): Promise<InlineQuestionList> {
  return unwrap(
    await api.GET('/api/insights/list/inline-questions/{seriesId}', { params: { path: { seriesId }, query: { period, page, pageSize: LIST_PAGE_SIZE } }, signal }),
  )
}

/** inlineQuestionsQuery: ['insights', seriesId, 'list', 'inline-questions', {period}], page by page. */
export const inlineQuestionsQuery = (seriesId: string, period: Period) =>
  infiniteQueryOptions({
    queryKey: insightsKeys.list(seriesId, 'inline-questions', period),
    queryFn: ({ pageParam, signal }) => listInlineQuestions(seriesId, period, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => nextPage(last, pages),
  })

export const useInlineQuestions = (seriesId: string, period: Period, enabled = true) => useInfiniteQuery({ ...inlineQuestionsQuery(seriesId, period), enabled })
