import type { Schemas } from '@/api/client'

/** Period is an Insights period in days (spec 002 §9). */
export type Period = Schemas['InsightsFreshness']['period']

export const PERIODS: readonly Period[] = [30, 60, 90]
export const DEFAULT_PERIOD: Period = 90

/**
 * insightsKeys: everything of a forum's Insights is under
 * ['insights', seriesId], then by what and by period, so a period's
 * reports are cached apart and one key refreshes them all.
 */
export const insightsKeys = {
  all: (seriesId: string) => ['insights', seriesId] as const,
  report: (seriesId: string, name: string, period: Period) => ['insights', seriesId, 'reports', name, { period }] as const,
  summary: (seriesId: string, period: Period) => ['insights', seriesId, 'summary', { period }] as const,
  list: (seriesId: string, name: string, period: Period) => ['insights', seriesId, 'list', name, { period }] as const,
  adminChannel: (seriesId: string) => ['insights', seriesId, 'admin-channel'] as const,
  contentGaps: (seriesId: string) => ['insights', seriesId, 'content-gaps'] as const,
  contentGapsPage: (seriesId: string, sort: ContentGapSort) => ['insights', seriesId, 'content-gaps', { sort }] as const,
}

/** ContentGapSort orders the content gaps: the most recently asked, or the most asked, first. */
export type ContentGapSort = 'latest' | 'mostAsked'

/**
 * The figures are live (the warehouse follows the change stream within
 * seconds), so a shown report is read again every half minute while the
 * page is visible, rather than the nightly update of the original product.
 */
export const REPORT_STALE_MS = 15_000
export const REPORT_REFETCH_MS = 30_000
