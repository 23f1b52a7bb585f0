import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { ErrorFallback } from '@/components/ui/states'
import { useAssignmentsPreview } from '../../api/preview-assignments'
import { toStagedState, type Staged } from '../../hooks/access-rules'

/**
 * ReviewStep is the confirmation: what the staged state does, and the
 * notice the newcomers receive (POST assignments-invitations-preview).
 */
export function ReviewStep({
  seriesId,
  staged,
  busy,
  error,
  onBack,
  onApply,
}: {
  seriesId: string
  staged: Staged
  busy: boolean
  error?: string
  onBack: () => void
  onApply: () => void
}) {
  const { t } = useTranslation()
  const q = useAssignmentsPreview(seriesId, toStagedState(staged))
  const removals = [...staged.values()].filter((c) => c.next === null).length
  return (
    <div className="grid gap-4" data-testid="review-step">
      <DialogHeader>
        <DialogTitle>{t('forum.access.review.title')}</DialogTitle>
        <DialogDescription>{t('forum.access.review.description')}</DialogDescription>
      </DialogHeader>
      {q.isPending ? (
        <div className="grid gap-2" aria-busy="true">
          <Skeleton className="h-5 w-2/3" />
          <Skeleton className="h-24" />
        </div>
      ) : q.isError ? (
        <ErrorFallback message={t('forum.access.review.previewFailed')} onRetry={() => void q.refetch()} />
      ) : (
        <div className="grid gap-3 text-sm">
          <ul className="grid gap-1">
            {q.data.totalAssignees > 0 && <li>{t('forum.access.review.assignees', { count: q.data.totalAssignees })}</li>}
            {removals > 0 && <li>{t('forum.access.review.removals', { count: removals })}</li>}
            {q.data.numExpectedRecipients > 0 && <li>{t('forum.access.review.recipients', { count: q.data.numExpectedRecipients })}</li>}
          </ul>
          {q.data.numExpectedRecipients > 0 && (
            <article className="grid gap-2 rounded-md border bg-muted/40 p-3" aria-label={q.data.subject} data-testid="notice-preview">
              <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
                <dt className="text-muted-foreground">{t('forum.access.review.from')}</dt>
                <dd>{q.data.from}</dd>
                <dt className="text-muted-foreground">{t('forum.access.review.subject')}</dt>
                <dd className="font-medium">{q.data.subject}</dd>
              </dl>
              <p className="whitespace-pre-line">{q.data.description}</p>
              <p className="text-xs text-muted-foreground">
                {t('forum.access.review.sentBy', { name: `${q.data.actor.firstName} ${q.data.actor.lastName}`.trim() })}
              </p>
            </article>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
      <DialogFooter>
        <Button variant="outline" onClick={onBack} disabled={busy}>
          {t('forum.access.back')}
        </Button>
        <Button onClick={onApply} disabled={busy || !q.isSuccess}>
          {busy ? t('forum.access.applying') : t('forum.access.review.apply')}
        </Button>
      </DialogFooter>
    </div>
  )
}
