import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, REPORT_REFETCH_MS, REPORT_STALE_MS, type Period } from './keys'

export type InsightsSummary = Schemas['InsightsSummary']

/** getSummary is GET /api/insights/summary/{seriesId}?period=: the docked panel's five figures. */
export async function getSummary(seriesId: string, period: Period, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/insights/summary/{seriesId}', { params: { path: { seriesId }, query: { period } }, signal }))
}

/** summaryQuery: ['insights', seriesId, 'summary', {period}]. */
export const summaryQuery = (seriesId: string, period: Period) =>
  queryOptions({
    queryKey: insightsKeys.summary(seriesId, period),
    queryFn: ({ signal }) => getSummary(seriesId, period, signal),
    staleTime: REPORT_STALE_MS,
    refetchInterval: REPORT_REFETCH_MS,
    placeholderData: keepPreviousData,
  })

export const useSummary = (seriesId: string, period: Period) => useQuery(summaryQuery(seriesId, period))
