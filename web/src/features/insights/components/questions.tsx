import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { useDailyReport, type DailyReportName } from '../api/get-daily-report'
import type { Period } from '../api/keys'
import { formatNumber } from '../lib/format'
import { DetailsDialog, type QuestionKind } from './details-dialog'
import { QueryBody } from './widget'

const ROWS: { kind: QuestionKind; report: DailyReportName }[] = [
  { kind: 'aiSearches', report: 'ai-searches' },
  { kind: 'inlineQuestions', report: 'inline-questions' },
  { kind: 'askedQuestions', report: 'asked-questions' },
]

type Props = { seriesId: string; communityId: string; period: Period }

/**
 * QuestionsBreakdown (spec 002 §2, marked beta): the period's AI searches,
 * inline questions and asked questions, each with its total and a Details
 * dialog. Each figure has its own report, so one failing leaves the others.
 */
export function QuestionsBreakdown(props: Props) {
  const { t } = useTranslation()
  const id = useId()
  return (
    <section aria-labelledby={id} className="min-w-0 rounded-lg border bg-card p-4 text-card-foreground" data-testid="questions-breakdown">
      <div className="mb-3 flex items-center gap-2">
        <h3 id={id} className="text-sm font-semibold">
          {t('insights.questions.title')}
        </h3>
        <Badge variant="secondary">{t('insights.questions.beta')}</Badge>
      </div>
      <ul className="grid gap-3 @3xl:grid-cols-3">
        {ROWS.map((r) => (
          <QuestionRow key={r.kind} {...props} {...r} />
        ))}
      </ul>
    </section>
  )
}

function QuestionRow({ kind, report, seriesId, communityId, period }: Props & { kind: QuestionKind; report: DailyReportName }) {
  const { t } = useTranslation()
  const q = useDailyReport(report, seriesId, period)
  const [open, setOpen] = useState(false)
  const label = t(`insights.questions.${kind}`)
  return (
    <li className="rounded-md bg-muted/60 p-3" data-testid={`questions-${kind}`}>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium">{label}</p>
        <Button variant="outline" size="sm" onClick={() => setOpen(true)} aria-label={t('insights.questions.detailsOf', { what: label })}>
          {t('insights.questions.details')}
        </Button>
      </div>
      <QueryBody q={q} rows={1}>
        {(d) => (
          <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
            <span className="text-2xl font-semibold tabular-nums" data-testid={`questions-${kind}-total`}>
              {formatNumber(d.total)}
            </span>
            {kind === 'askedQuestions' && (
              <span className="text-xs text-muted-foreground">{t('insights.questions.anonymousCount', { count: d.counts.anonymous ?? 0 })}</span>
            )}
          </p>
        )}
      </QueryBody>
      <DetailsDialog kind={kind} open={open} onOpenChange={setOpen} seriesId={seriesId} communityId={communityId} period={period} />
    </li>
  )
}
