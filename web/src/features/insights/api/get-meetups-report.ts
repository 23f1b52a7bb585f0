import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, REPORT_REFETCH_MS, REPORT_STALE_MS, type Period } from './keys'

export type MeetupsReport = Schemas['MeetupsReport']

/** getMeetupsReport is GET /api/insights/reports/meetups/{seriesId}?period=. */
export async function getMeetupsReport(seriesId: string, period: Period, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/insights/reports/meetups/{seriesId}', { params: { path: { seriesId }, query: { period } }, signal }))
}

/** meetupsReportQuery: ['insights', seriesId, 'reports', 'meetups', {period}]. */
export const meetupsReportQuery = (seriesId: string, period: Period) =>
  queryOptions({
    queryKey: insightsKeys.report(seriesId, 'meetups', period),
    queryFn: ({ signal }) => getMeetupsReport(seriesId, period, signal),
    staleTime: REPORT_STALE_MS,
    refetchInterval: REPORT_REFETCH_MS,
    placeholderData: keepPreviousData,
  })

export const useMeetupsReport = (seriesId: string, period: Period) => useQuery(meetupsReportQuery(seriesId, period))
