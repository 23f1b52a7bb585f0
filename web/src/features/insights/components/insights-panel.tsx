import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Loader2 } from 'lucide-react'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useAdminChannel } from '../api/get-admin-channel'
import { useContentReport } from '../api/get-content-report'
import { useDailyReport } from '../api/get-daily-report'
import { useMeetupsReport } from '../api/get-meetups-report'
import { useMembersReport } from '../api/get-members-report'
import { useNow } from '../hooks/use-now'
import { setPeriod, usePeriod } from '../hooks/use-period'
import { newest, relativeTime } from '../lib/format'
import { MeetupFigures, MembersAccess, SharedContent } from './breakdown'
import { ContentGaps } from './content-gaps'
import { Overview } from './overview'
import { PeriodSlider } from './period-slider'
import { QuestionsBreakdown } from './questions'
import { RowsSkeleton, Widget } from './widget'

export interface InsightsPanelProps {
  seriesId: string
  communityId: string
  /**
   * The admin channel's feed with its composer, for a channel id. The shell
   * composes it from the feed feature (features do not import each other).
   */
  feed?: (channelId: string) => ReactNode
}

/**
 * InsightsPanel is the forum admins' Insights tab (spec 002 §2, §3): the
 * period slider, the interactions overview, the breakdown (shared content,
 * Meet Ups, members access), the questions breakdown, the content gaps
 * (questions the AI search could not answer) and the admin
 * channel's feed. Every widget reads its own report for the period and
 * fails alone. The figures are live, so the panel says how fresh they are
 * rather than "updated nightly". It lays itself out in columns when the
 * panel is wide (full screen).
 */
export function InsightsPanel({ seriesId, communityId, feed }: InsightsPanelProps) {
  const { t } = useTranslation()
  const period = usePeriod()
  const interactions = useDailyReport('interactions', seriesId, period)
  const content = useContentReport(seriesId, period)
  const meetups = useMeetupsReport(seriesId, period)
  const members = useMembersReport(seriesId, period)
  const breakdownId = useId()
  const reports = [interactions, content, meetups, members]
  const refreshing = reports.some((q) => q.isPlaceholderData)
  return (
    <div className="@container grid gap-4" data-testid="insights-panel" data-period={period}>
      <header className="grid gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
          <h2 className="text-lg font-semibold">{t('insights.title')}</h2>
          <Freshness updatedOn={newest(reports.map((q) => q.data?.updatedOn))} refreshing={refreshing} />
        </div>
        <PeriodSlider value={period} onChange={setPeriod} />
      </header>
      <Widget title={t('insights.overview.title')} q={interactions} testId="insights-overview">
        {(d) => <Overview report={d} />}
      </Widget>
      <section aria-labelledby={breakdownId} className="grid gap-3">
        <h3 id={breakdownId} className="text-sm font-semibold">
          {t('insights.breakdown.title')}
        </h3>
        <div className="grid gap-4 @3xl:grid-cols-3">
          <Widget level={4} title={t('insights.content.title')} q={content} testId="insights-content">
            {(d) => <SharedContent report={d} />}
          </Widget>
          <Widget level={4} title={t('insights.meetups.title')} q={meetups} testId="insights-meetups">
            {(d) => <MeetupFigures report={d} />}
          </Widget>
          <Widget level={4} title={t('insights.members.title')} q={members} testId="insights-members">
            {(d) => <MembersAccess report={d} />}
          </Widget>
        </div>
      </section>
      <QuestionsBreakdown seriesId={seriesId} communityId={communityId} period={period} />
      <ContentGaps seriesId={seriesId} />
      {feed && <AdminChannel seriesId={seriesId} feed={feed} />}
    </div>
  )
}

/** Freshness: "Updated 2 minutes ago" from the newest report, "No activity yet" before the forum's first change. */
function Freshness({ updatedOn, refreshing }: { updatedOn: string | null | undefined; refreshing: boolean }) {
  const { t } = useTranslation()
  const now = useNow()
  return (
    <p className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="insights-updated">
      {refreshing && (
        <span role="status" className="flex items-center gap-1">
          <Loader2 className="size-3 animate-spin" aria-hidden />
          {t('insights.refreshing')}
        </span>
      )}
      {updatedOn === null && t('insights.noActivity')}
      {updatedOn && (
        <time dateTime={updatedOn} title={new Date(updatedOn).toLocaleString()}>
          {t('insights.updated', { when: relativeTime(updatedOn, now) ?? t('insights.justNow') })}
        </time>
      )}
    </p>
  )
}

/** AdminChannel is the feed section: the forum's admin channel, with its composer. */
function AdminChannel({ seriesId, feed }: { seriesId: string; feed: (channelId: string) => ReactNode }) {
  const { t } = useTranslation()
  const q = useAdminChannel(seriesId)
  const id = useId()
  return (
    <section aria-labelledby={id} className="grid min-w-0 gap-3" data-testid="insights-admin-feed">
      <div>
        <h3 id={id} className="text-sm font-semibold">
          {t('insights.feed.title')}
        </h3>
        <p className="text-xs text-muted-foreground">{t('insights.feed.description')}</p>
      </div>
      {q.isPending ? (
        <RowsSkeleton />
      ) : !q.data ? (
        <ErrorFallback className="py-4" onRetry={() => void q.refetch()} />
      ) : q.data._id === null ? (
        <EmptyState className="py-4">{t('insights.feed.none')}</EmptyState>
      ) : (
        feed(q.data._id)
      )}
    </section>
  )
}
