import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from 'recharts'
import type { DailyReport } from '../api/get-daily-report'
import { formatDay, formatNumber } from '../lib/format'

type Point = { date: string; day: string; count: number }

const KINDS = ['posts', 'comments', 'replies', 'reactions'] as const

/**
 * Overview is the interactions a day of the period as an area chart, with
 * the period's total and its split by kind (spec 002 §2). The chart's
 * figures are also a table for screen readers, and a sentence sums it up.
 */
export function Overview({ report }: { report: DailyReport }) {
  const { t } = useTranslation()
  const summaryId = useId()
  const data: Point[] = report.data.map((d) => ({ date: d.date, day: formatDay(d.date), count: d.count }))
  const busiest = data.reduce<Point | undefined>((max, p) => (p.count > (max?.count ?? 0) ? p : max), undefined)
  const summary = busiest
    ? t('insights.overview.summary', { total: formatNumber(report.total), period: report.period, day: busiest.day, max: formatNumber(busiest.count) })
    : t('insights.overview.summaryNone', { period: report.period })
  return (
    <figure className="grid gap-3" aria-describedby={summaryId}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <p className="text-3xl font-semibold tabular-nums" data-testid="interactions-total">
          <span className="sr-only">{t('insights.overview.total')}: </span>
          {formatNumber(report.total)}
        </p>
        <p className="text-sm text-muted-foreground">{t('insights.overview.totalValue', { period: report.period })}</p>
      </div>
      <p id={summaryId} className="sr-only">
        {summary}
      </p>
      <div className="h-40 w-full @3xl:h-64" data-testid="interactions-chart">
        <ResponsiveContainer width="100%" height="100%" minWidth={0} initialDimension={{ width: 320, height: 160 }}>
          <AreaChart data={data} margin={{ top: 4, right: 4, bottom: 0, left: -20 }} title={t('insights.overview.tableCaption')}>
            <defs>
              <linearGradient id="insights-area" x1="0" y1="0" x2="0" y2="1">
                <stop offset="5%" stopColor="var(--color-chart-1)" stopOpacity={0.35} />
                <stop offset="95%" stopColor="var(--color-chart-1)" stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid vertical={false} stroke="var(--color-border)" />
            <XAxis
              dataKey="day"
              tickLine={false}
              axisLine={false}
              minTickGap={24}
              tick={{ fill: 'var(--color-muted-foreground)', fontSize: 11 }}
            />
            <YAxis allowDecimals={false} tickLine={false} axisLine={false} width={40} tick={{ fill: 'var(--color-muted-foreground)', fontSize: 11 }} />
            <Tooltip content={<DayTooltip />} cursor={{ stroke: 'var(--color-muted-foreground)', strokeDasharray: '3 3' }} />
            <Area
              type="monotone"
              dataKey="count"
              name={t('insights.overview.interactions')}
              stroke="var(--color-chart-1)"
              strokeWidth={2}
              fill="url(#insights-area)"
              isAnimationActive={false}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>{t('insights.overview.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('insights.overview.day')}</th>
            <th scope="col">{t('insights.overview.count')}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((p) => (
            <tr key={p.date}>
              <th scope="row">{p.day}</th>
              <td>{p.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="grid grid-cols-4 gap-2 text-center" data-testid="interactions-kinds">
        {KINDS.map((k) => (
          <div key={k} className="rounded-md bg-muted px-1 py-2">
            <dt className="text-xs text-muted-foreground">{t(`insights.overview.kinds.${k}`)}</dt>
            <dd className="font-semibold tabular-nums">{formatNumber(report.counts[k] ?? 0)}</dd>
          </div>
        ))}
      </dl>
    </figure>
  )
}

/** DayTooltip names the day and its count. */
function DayTooltip({ active, payload }: Partial<TooltipContentProps<number, string>>) {
  const { t } = useTranslation()
  const p = payload?.[0]?.payload as Point | undefined
  if (!active || !p) return null
  return (
    <div className="rounded-md border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-md" data-testid="chart-tooltip">
      <p className="font-medium">{p.day}</p>
      <p>{t('insights.overview.tooltip', { count: p.count })}</p>
    </div>
  )
}
