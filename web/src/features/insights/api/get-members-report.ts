import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, REPORT_REFETCH_MS, REPORT_STALE_MS, type Period } from './keys'

export type MembersReport = Schemas['MembersReport']

/** getMembersReport is GET /api/insights/reports/members/{seriesId}?period=: who of the members visited. */
export async function getMembersReport(seriesId: string, period: Period, signal?: AbortSignal) {
  return unwrap(await api.GET('/api/insights/reports/members/{seriesId}', { params: { path: { seriesId }, query: { period } }, signal }))
}

/** membersReportQuery: ['insights', seriesId, 'reports', 'members', {period}]. */
export const membersReportQuery = (seriesId: string, period: Period) =>
  queryOptions({
    queryKey: insightsKeys.report(seriesId, 'members', period),
    queryFn: ({ signal }) => getMembersReport(seriesId, period, signal),
    staleTime: REPORT_STALE_MS,
    refetchInterval: REPORT_REFETCH_MS,
    placeholderData: keepPreviousData,
  })

export const useMembersReport = (seriesId: string, period: Period) => useQuery(membersReportQuery(seriesId, period))
