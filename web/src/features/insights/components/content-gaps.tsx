import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { EmptyState } from '@/components/ui/states'
import { useDismissContentGap } from '../api/dismiss-content-gap'
import type { ContentGapSort } from '../api/keys'
import { useContentGaps } from '../api/list-content-gaps'
import { formatDay } from '../lib/format'
import { QueryBody } from './widget'

/**
 * ContentGaps lists the questions members asked the forum's AI search that
 * no post answered (issue 20), once each with how many times it was asked,
 * for the admins to write the posts that are missing; each can be
 * dismissed. Not tied to the period: a gap stays until it is dismissed.
 */
export function ContentGaps({ seriesId }: { seriesId: string }) {
  const { t } = useTranslation()
  const [sort, setSort] = useState<ContentGapSort>('latest')
  const q = useContentGaps(seriesId, sort)
  const dismiss = useDismissContentGap(seriesId)
  const id = useId()
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border bg-card p-4 text-card-foreground" data-testid="insights-content-gaps">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 id={id} className="text-sm font-semibold">
            {t('insights.gaps.title')}
          </h3>
          <p className="text-xs text-muted-foreground">{t('insights.gaps.description')}</p>
        </div>
        <div role="group" aria-label={t('insights.gaps.sort')} className="flex gap-1">
          {(['latest', 'mostAsked'] as const).map((s) => (
            <Button key={s} size="sm" variant={sort === s ? 'secondary' : 'ghost'} aria-pressed={sort === s} onClick={() => setSort(s)}>
              {t(`insights.gaps.${s}`)}
            </Button>
          ))}
        </div>
      </div>
      {dismiss.isError && (
        <p role="alert" className="mb-2 text-xs text-destructive">
          {t('insights.gaps.dismissFailed')}
        </p>
      )}
      <QueryBody q={q} rows={3}>
        {(page) =>
          page.results.length === 0 ? (
            <EmptyState className="py-4">{t('insights.gaps.empty')}</EmptyState>
          ) : (
            <ul className="grid gap-2">
              {page.results.map((g) => (
                <li key={g.id} className="flex items-start justify-between gap-3 border-b pb-2 last:border-b-0 last:pb-0" data-testid="content-gap">
                  <div className="min-w-0">
                    <p className="break-words text-sm">{g.question}</p>
                    <p className="text-xs text-muted-foreground">
                      {t('insights.gaps.asked', { count: g.askedCount })} ·{' '}
                      <time dateTime={g.lastAskedOn} title={new Date(g.lastAskedOn).toLocaleString()}>
                        {t('insights.gaps.lastAsked', { day: formatDay(g.lastAskedOn.slice(0, 10)) })}
                      </time>
                    </p>
                  </div>
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={t('insights.gaps.dismissQuestion', { question: g.question })}
                    disabled={dismiss.isPending && dismiss.variables === g.id}
                    onClick={() => dismiss.mutate(g.id)}
                  >
                    {t('insights.gaps.dismiss')}
                  </Button>
                </li>
              ))}
            </ul>
          )
        }
      </QueryBody>
    </section>
  )
}
