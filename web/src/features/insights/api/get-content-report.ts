import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, REPORT_REFETCH_MS, REPORT_STALE_MS, type Period } from './keys'

export type ContentReport = Schemas['ContentReport']
export type ContentKind = ContentReport['kinds'][number]['kind']

/** getContentReport is GET /api/insights/reports/content/{seriesId}?period=: shared content by kind. */
export async function getContentReport(seriesId: string, period: Period, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/insights/reports/content/{seriesId}', { params: { path: { seriesId }, query: { period } }, signal }))
}

/** contentReportQuery: ['insights', seriesId, 'reports', 'content', {period}]. */
export const contentReportQuery = (seriesId: string, period: Period) =>
  queryOptions({
    queryKey: insightsKeys.report(seriesId, 'content', period),
    queryFn: ({ signal }) => getContentReport(seriesId, period, signal),
    staleTime: REPORT_STALE_MS,
    refetchInterval: REPORT_REFETCH_MS,
    placeholderData: keepPreviousData,
  })

export const useContentReport = (seriesId: string, period: Period) => useQuery(contentReportQuery(seriesId, period))
