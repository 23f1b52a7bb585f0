import { useId, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Skeleton } from '@/components/ui/skeleton'
import { ErrorFallback } from '@/components/ui/states'
import { cn } from '@/lib/utils'

/** The part of a query a widget reads. */
export type WidgetQuery<T> = {
  data: T | undefined
  isPending: boolean
  isError: boolean
  isPlaceholderData?: boolean
  refetch: () => unknown
}

/** RowsSkeleton is a widget's loading state: 5 rows (spec 002 §2). */
export function RowsSkeleton({ rows = 5, className }: { rows?: number; className?: string }) {
  const { t } = useTranslation()
  return (
    <div role="status" className={cn('grid gap-2', className)} data-testid="insights-skeleton">
      <span className="sr-only">{t('insights.loading')}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-5" />
      ))}
    </div>
  )
}

/**
 * QueryBody shows a query's loading rows, its generic error with a retry
 * (spec 002 §8: one widget failing leaves the others), or its data. Data
 * kept from the previous period stays shown, marked busy, until the new
 * period's arrives.
 */
export function QueryBody<T>({ q, children, rows }: { q: WidgetQuery<T>; children: (data: T) => ReactNode; rows?: number }) {
  if (q.data !== undefined) {
    return (
      <div aria-busy={q.isPlaceholderData || undefined} className={cn('transition-opacity', q.isPlaceholderData && 'opacity-60')}>
        {children(q.data)}
      </div>
    )
  }
  if (q.isError) return <ErrorFallback className="py-4" onRetry={() => void q.refetch()} />
  return <RowsSkeleton rows={rows} />
}

/** Widget is one card of the panel: a titled section with its own query. */
export function Widget<T>({
  title,
  badge,
  q,
  children,
  className,
  testId,
  level = 3,
}: {
  title: ReactNode
  badge?: ReactNode
  q: WidgetQuery<T>
  children: (data: T) => ReactNode
  className?: string
  testId?: string
  /** The heading's level: 3 for the panel's sections, 4 inside a titled group. */
  level?: 3 | 4
}) {
  const id = useId()
  const Heading = level === 4 ? 'h4' : 'h3'
  return (
    <section aria-labelledby={id} className={cn('min-w-0 rounded-lg border bg-card p-4 text-card-foreground', className)} data-testid={testId}>
      <div className="mb-3 flex items-center gap-2">
        <Heading id={id} className="text-sm font-semibold">
          {title}
        </Heading>
        {badge}
      </div>
      <QueryBody q={q}>{children}</QueryBody>
    </section>
  )
}

/** Figures is a grid of labelled numbers. */
export function Figures({ items, className }: { items: { key: string; label: ReactNode; value: ReactNode }[]; className?: string }) {
  return (
    <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-3', className)}>
      {items.map((f) => (
        <div key={f.key} className="min-w-0" data-testid={`figure-${f.key}`}>
          <dt className="text-xs text-muted-foreground">{f.label}</dt>
          <dd className="text-lg font-semibold tabular-nums">{f.value}</dd>
        </div>
      ))}
    </dl>
  )
}
