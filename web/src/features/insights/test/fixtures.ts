import { afterAll, beforeAll } from 'vitest'
import type { Schemas } from '@/api/client'
import { forumMember } from '@/test/factories'
import { json, stubFetch } from '@/test/utils'

// Insights reports as the API serves them, and a fetch stub that answers
// the panel's reads, for the insights tests.

export const SERIES = '0190a000-0000-7000-8000-0000000000f1'
export const COMMUNITY = '0190a000-0000-7000-8000-0000000000c0'
export const ADMIN_CHANNEL = '0190a000-0000-7000-8000-0000000000c2'
export const ADA = '0190a000-0000-7000-8000-0000000000aa'

type Period = 30 | 60 | 90
// Taken once, when the module loads, so that a slow answer cannot make the
// report younger than the panel's clock (which is read at its first render).
const FIVE_MINUTES_AGO = new Date(Date.now() - 5 * 60_000).toISOString()
const fresh = (period: Period, updatedOn: string | null = FIVE_MINUTES_AGO) => ({ period, updatedOn })

/** daily is a report of `period` days ending 2026-03-31, with the given counts on some days. */
export function daily(period: Period, counts: Record<string, number> = {}, extra: Record<string, number> = {}, updatedOn?: string | null): Schemas['DailyReport'] {
  const end = Date.UTC(2026, 2, 31)
  const data = Array.from({ length: period }, (_, i) => {
    const date = new Date(end - (period - 1 - i) * 86_400_000).toISOString().slice(0, 10)
    return { date, count: counts[date] ?? 0 }
  })
  return { ...fresh(period, updatedOn), total: data.reduce((n, d) => n + d.count, 0), data, counts: extra }
}

export const content = (period: Period): Schemas['ContentReport'] => ({
  ...fresh(period),
  total: 8,
  kinds: [
    { kind: 'image', value: 3, percent: 37.5 },
    { kind: 'file', value: 1, percent: 12.5 },
    { kind: 'link', value: 2, percent: 25 },
    { kind: 'video', value: 0, percent: 0 },
    { kind: 'aiChat', value: 2, percent: 25 },
  ],
})

export const meetups = (period: Period): Schemas['MeetupsReport'] => ({
  ...fresh(period),
  meetups: 4,
  invited: 31,
  attended: 18,
  attendanceAvg: 4.5,
  durationAvg: 42.4,
  private: 1,
})

export const members = (period: Period): Schemas['MembersReport'] => ({
  ...fresh(period),
  counts: { visitors: 9, avgVisitsPerMember: 2.3, didNotVisit: 3, total: 12 },
  visitorIds: [],
})

export const summary = (period: Period): Schemas['InsightsSummary'] => ({
  ...fresh(period),
  interactions: 1234,
  sharedContent: 8,
  meetups: 4,
  members: 9,
  inquiries: 17,
})

const member = (userId: string, firstName: string, lastName: string) =>
  forumMember(firstName, { id: `p-${userId}`, userId, lastName, email: `${firstName.toLowerCase()}@demo.test` })

export type Route = (method: string, path: string, url: URL) => Response | undefined | Promise<Response | undefined>

/**
 * serveInsights answers every insights read with the fixtures above, for
 * the period asked; `over` answers first (return undefined to fall through).
 */
export function serveInsights(over: Route = () => undefined) {
  return stubFetch(async (method, path, req) => {
    const url = new URL(req.url)
    const own = await over(method, path, url)
    if (own) return own
    const period = Number(url.searchParams.get('period') ?? 90) as Period
    const p = url.pathname
    const is = (what: string) => p === `/api/insights/${what}/${SERIES}`
    if (is('reports/interactions')) return json(200, daily(period, { '2026-03-03': 7, '2026-03-20': 5 }, { posts: 4, comments: 3, replies: 1, reactions: 4 }))
    if (is('reports/ai-searches')) return json(200, daily(period, { '2026-03-10': 6 }))
    if (is('reports/inline-questions')) return json(200, daily(period, { '2026-03-11': 2 }))
    if (is('reports/asked-questions')) return json(200, daily(period, { '2026-03-12': 3 }, { anonymous: 1 }))
    if (is('reports/content')) return json(200, content(period))
    if (is('reports/meetups')) return json(200, meetups(period))
    if (is('reports/members')) return json(200, members(period))
    if (is('summary')) return json(200, summary(period))
    if (is('list/content-gaps')) return json(200, { results: [], total: 0 })
    if (p === `/api/insights/series/${SERIES}/admin-channel`) return json(200, { _id: ADMIN_CHANNEL })
    if (p === `/api/series/${SERIES}/members`) return json(200, { results: [member(ADA, 'Ada', 'Lovelace')], total: 1 })
    return json(404, { code: 'notFound', message: path })
  })
}

/**
 * sizeCharts gives the charts' container the panel's size while a test
 * file runs: jsdom lays nothing out, and a chart of no size draws nothing
 * (its tooltip could not be read) and warns.
 */
export function sizeCharts() {
  const rect = Element.prototype.getBoundingClientRect
  beforeAll(() => {
    Element.prototype.getBoundingClientRect = function (this: Element) {
      return this.classList.contains('recharts-responsive-container') ? new DOMRect(0, 0, 320, 160) : rect.call(this)
    }
  })
  afterAll(() => {
    Element.prototype.getBoundingClientRect = rect
  })
}
