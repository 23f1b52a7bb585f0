import type { ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import { Activity, CalendarDays, MessageCircleQuestion, RotateCw, Share2, Users } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Skeleton } from '@/components/ui/skeleton'
import { useSummary, type InsightsSummary } from '../api/get-summary'
import { usePeriod } from '../hooks/use-period'

type StatKey = keyof Pick<InsightsSummary, 'interactions' | 'sharedContent' | 'meetups' | 'members' | 'inquiries'>

const STATS: { key: StatKey; icon: ComponentType<{ className?: string }> }[] = [
  { key: 'interactions', icon: Activity },
  { key: 'sharedContent', icon: Share2 },
  { key: 'meetups', icon: CalendarDays },
  { key: 'members', icon: Users },
  { key: 'inquiries', icon: MessageCircleQuestion },
]

const compact = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 })

/**
 * InsightsSummaryStats are the docked panel's five figures for a forum's
 * admins (spec 002 §2): interactions, shared content, Meet Ups, members
 * and inquiries (AI searches, asked and inline questions together), over
 * the chosen period. On failure each figure reads 'oops' under the generic
 * error message (spec 002 §8).
 */
export function InsightsSummaryStats({ seriesId }: { seriesId: string }) {
  const { t } = useTranslation()
  const period = usePeriod()
  const q = useSummary(seriesId, period)
  const failed = q.isError && !q.data
  return (
    <section aria-label={t('insights.summary.label', { period })} className="flex w-full flex-col items-center gap-3 px-1" data-testid="insights-summary">
      {failed && (
        <div className="flex flex-col items-center gap-1 text-center">
          <p role="alert" className="text-[10px] leading-tight text-destructive">
            {t('error.genericMessage')}
          </p>
          <Button variant="ghost" size="icon" className="size-7" aria-label={t('error.retry')} onClick={() => void q.refetch()}>
            <RotateCw aria-hidden />
          </Button>
        </div>
      )}
      {q.isPending ? (
        <div role="status" className="flex w-full flex-col items-center gap-3">
          <span className="sr-only">{t('insights.loading')}</span>
          {STATS.map((s) => (
            <Skeleton key={s.key} className="h-9 w-12" />
          ))}
        </div>
      ) : (
        <dl className="flex w-full flex-col items-center gap-3">
          {STATS.map(({ key, icon: Icon }) => (
            <div key={key} className="flex w-full flex-col items-center text-center" data-testid={`summary-${key}`} title={t(`panel.stats.${key}`)}>
              <dt className="order-2 w-full break-words text-[10px] leading-tight text-muted-foreground">{t(`panel.stats.${key}`)}</dt>
              <dd className="order-1 flex flex-col items-center">
                <Icon className="size-4 text-muted-foreground" aria-hidden />
                <span className="text-sm font-semibold tabular-nums">{failed || !q.data ? t('insights.oops') : compact.format(q.data[key])}</span>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  )
}
