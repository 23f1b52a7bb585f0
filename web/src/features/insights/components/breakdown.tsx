import type { ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import { FileText, Image as ImageIcon, Link2, Sparkles, Video } from 'lucide-react'
import { Pie, PieChart, Tooltip, type TooltipContentProps } from 'recharts'
import { EmptyState } from '@/components/ui/states'
import type { ContentKind, ContentReport } from '../api/get-content-report'
import type { MeetupsReport } from '../api/get-meetups-report'
import type { MembersReport } from '../api/get-members-report'
import { formatNumber } from '../lib/format'
import { Figures } from './widget'

/** Each kind's colour and icon; the legend names every kind, so colour is never the only cue. */
const KIND_STYLE: Record<ContentKind, { color: string; icon: ComponentType<{ className?: string }> }> = {
  image: { color: 'var(--color-chart-1)', icon: ImageIcon },
  file: { color: 'var(--color-chart-2)', icon: FileText },
  link: { color: 'var(--color-chart-3)', icon: Link2 },
  video: { color: 'var(--color-chart-4)', icon: Video },
  aiChat: { color: 'var(--color-chart-5)', icon: Sparkles },
}

type Slice = { kind: ContentKind; name: string; value: number; percent: number; fill: string }

/**
 * SharedContent is the period's shared content as a donut by kind (image,
 * file, link, video, AI chat), with a legend that gives each kind's icon,
 * name, count and share in text.
 */
export function SharedContent({ report }: { report: ContentReport }) {
  const { t } = useTranslation()
  if (report.total === 0) return <EmptyState className="py-4">{t('insights.content.empty')}</EmptyState>
  const slices: Slice[] = report.kinds.map((k) => ({
    kind: k.kind,
    name: t(`insights.content.kinds.${k.kind}`),
    value: k.value,
    percent: k.percent,
    fill: KIND_STYLE[k.kind].color,
  }))
  const parts = slices.map((s) => t('insights.content.part', { kind: s.name, value: formatNumber(s.value), percent: formatNumber(s.percent) })).join(', ')
  return (
    <figure className="flex flex-wrap items-center gap-4">
      <div className="relative size-32 shrink-0" data-testid="content-donut">
        <PieChart width={128} height={128} title={t('insights.content.summary', { total: formatNumber(report.total), parts })}>
          <Pie
            data={slices.filter((s) => s.value > 0)}
            dataKey="value"
            nameKey="name"
            innerRadius={40}
            outerRadius={62}
            paddingAngle={1}
            stroke="var(--color-card)"
            isAnimationActive={false}
          />
          <Tooltip content={<SliceTooltip />} />
        </PieChart>
        <div className="pointer-events-none absolute inset-0 flex flex-col items-center justify-center" aria-hidden>
          <span className="text-xl font-semibold tabular-nums">{formatNumber(report.total)}</span>
        </div>
      </div>
      <figcaption className="min-w-0 flex-1">
        <p className="mb-1 text-xs text-muted-foreground">
          {t('insights.content.total')}: <span className="font-semibold text-foreground tabular-nums">{formatNumber(report.total)}</span>
        </p>
        <ul aria-label={t('insights.content.legend')} className="grid gap-1 text-sm" data-testid="content-legend">
          {slices.map((s) => {
            const Icon = KIND_STYLE[s.kind].icon
            return (
              <li key={s.kind} className="flex items-center gap-2" data-testid={`content-${s.kind}`}>
                <span className="flex size-5 shrink-0 items-center justify-center rounded" style={{ backgroundColor: s.fill }} aria-hidden>
                  <Icon className="size-3 text-background" />
                </span>
                <span className="min-w-0 flex-1 truncate">{s.name}</span>
                <span className="tabular-nums">{formatNumber(s.value)}</span>
                <span className="w-14 text-right tabular-nums text-muted-foreground">{formatNumber(s.percent)}%</span>
              </li>
            )
          })}
        </ul>
      </figcaption>
    </figure>
  )
}

function SliceTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const { t } = useTranslation()
  const s = payload?.[0]?.payload as Slice | undefined
  if (!active || !s) return null
  return (
    <div className="rounded-md border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-md">
      {t('insights.content.part', { kind: s.name, value: formatNumber(s.value), percent: formatNumber(s.percent) })}
    </div>
  )
}

/** MeetupFigures: Meet Ups held, invitations, attendance, averages and private ones. */
export function MeetupFigures({ report }: { report: MeetupsReport }) {
  const { t } = useTranslation()
  return (
    <Figures
      items={[
        { key: 'meetups', label: t('insights.meetups.meetups'), value: formatNumber(report.meetups) },
        { key: 'invited', label: t('insights.meetups.invited'), value: formatNumber(report.invited) },
        { key: 'attended', label: t('insights.meetups.attended'), value: formatNumber(report.attended) },
        { key: 'attendanceAvg', label: t('insights.meetups.attendanceAvg'), value: formatNumber(report.attendanceAvg) },
        { key: 'durationAvg', label: t('insights.meetups.durationAvg'), value: t('insights.meetups.minutes', { count: Math.round(report.durationAvg) }) },
        { key: 'private', label: t('insights.meetups.private'), value: formatNumber(report.private) },
      ]}
    />
  )
}

/** MembersAccess: who of the forum's members visited in the period. */
export function MembersAccess({ report }: { report: MembersReport }) {
  const { t } = useTranslation()
  const c = report.counts
  const share = c.total > 0 ? Math.min(100, (c.visitors / c.total) * 100) : 0
  return (
    <div className="grid gap-3">
      <Figures
        items={[
          { key: 'visitors', label: t('insights.members.visitors'), value: formatNumber(c.visitors) },
          { key: 'didNotVisit', label: t('insights.members.didNotVisit'), value: formatNumber(c.didNotVisit) },
          { key: 'total', label: t('insights.members.total'), value: formatNumber(c.total) },
          { key: 'avgVisits', label: t('insights.members.avgVisits'), value: formatNumber(c.avgVisitsPerMember) },
        ]}
      />
      <div>
        <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <div className="h-full rounded-full bg-chart-2" style={{ width: `${share}%` }} />
        </div>
        <p className="mt-1 text-xs text-muted-foreground">{t('insights.members.share', { visitors: formatNumber(c.visitors), total: formatNumber(c.total) })}</p>
      </div>
    </div>
  )
}
