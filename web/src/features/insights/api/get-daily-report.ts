import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { insightsKeys, REPORT_REFETCH_MS, REPORT_STALE_MS, type Period } from './keys'

export type DailyReport = Schemas['DailyReport']

/** The four reports that count something a day: one entry a day of the period and its total. */
export type DailyReportName = 'interactions' | 'inline-questions' | 'asked-questions' | 'ai-searches'

/** getDailyReport is GET /api/insights/reports/{name}/{seriesId}?period=. */
export async function getDailyReport(name: DailyReportName, seriesId: string, period: Period, signal?: AbortSignal): Promise<DailyReport> {
  const params = { params: { path: { seriesId }, query: { period } }, signal }
  switch (name) {
    case 'interactions':
      return unwrap(await api.GET('/api/insights/reports/interactions/{seriesId}', params))
    case 'inline-questions':
      return unwrap(await api.GET('/api/insights/reports/inline-questions/{seriesId}', params))
    case 'asked-questions':
      return unwrap(await api.GET('/api/insights/reports/asked-questions/{seriesId}', params))
    case 'ai-searches':
      return unwrap(await api.GET('/api/insights/reports/ai-searches/{seriesId}', params))
  }
}

/** dailyReportQuery: ['insights', seriesId, 'reports', name, {period}]. */
export const dailyReportQuery = (name: DailyReportName, seriesId: string, period: Period) =>
  queryOptions({
    queryKey: insightsKeys.report(seriesId, name, period),
    queryFn: ({ signal }) => getDailyReport(name, seriesId, period, signal),
    staleTime: REPORT_STALE_MS,
    refetchInterval: REPORT_REFETCH_MS,
    // A new period keeps the previous figures on screen until it arrives.
    placeholderData: keepPreviousData,
  })

export const useDailyReport = (name: DailyReportName, seriesId: string, period: Period) => useQuery(dailyReportQuery(name, seriesId, period))
