import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, type ContentGapSort } from './keys'

export type ContentGapPage = Schemas['ContentGapPage']

/** CONTENT_GAPS_SHOWN is how many content gaps the panel shows: the first page. */
export const CONTENT_GAPS_SHOWN = 20

/** listContentGaps is GET /api/insights/list/content-gaps/{seriesId}: the questions the AI search could not answer. */
export async function listContentGaps(seriesId: string, sort: ContentGapSort, signal?: AbortSignal): Promise<ContentGapPage> {
  return unwrap(
    await api.GET('/api/insights/list/content-gaps/{seriesId}', {
      params: { path: { seriesId }, query: { sort, page: 1, pageSize: CONTENT_GAPS_SHOWN } },
      signal,
    }),
  )
}

/** contentGapsQuery: ['insights', seriesId, 'content-gaps', {sort}]. */
export const contentGapsQuery = (seriesId: string, sort: ContentGapSort) =>
  queryOptions({
    queryKey: insightsKeys.contentGapsPage(seriesId, sort),
    queryFn: ({ signal }) => listContentGaps(seriesId, sort, signal),
    placeholderData: keepPreviousData,
  })

export const useContentGaps = (seriesId: string, sort: ContentGapSort) => useQuery(contentGapsQuery(seriesId, sort))
