import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { formatPostDate } from '@/lib/format-date'
import { useForumPeople } from '../api/get-forum-people'
import type { Period } from '../api/keys'
import { useAISearches } from '../api/list-ai-searches'
import { useAskedQuestions } from '../api/list-asked-questions'
import { useInlineQuestions } from '../api/list-inline-questions'
import { formatNumber } from '../lib/format'
import { RowsSkeleton } from './widget'

/** QuestionKind names the three lists of the questions breakdown. */
export type QuestionKind = 'aiSearches' | 'inlineQuestions' | 'askedQuestions'

type ListProps = { seriesId: string; communityId: string; period: Period; onNavigate: () => void }

/**
 * DetailsDialog lists what a questions figure counts (spec 002 §2): the
 * period's AI searches, inline questions or asked questions, newest first,
 * a page at a time with "Load more"; each item links to its post where it
 * has one. Radix keeps the focus inside and Escape closes it.
 */
export function DetailsDialog({
  kind,
  open,
  onOpenChange,
  ...list
}: Omit<ListProps, 'onNavigate'> & { kind: QuestionKind; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation()
  const props = { ...list, onNavigate: () => onOpenChange(false) }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[85dvh] max-w-xl overflow-y-auto" data-testid="details-dialog">
        <DialogHeader>
          <DialogTitle>{t(`insights.questions.${kind}`)}</DialogTitle>
          <DialogDescription>{t(`insights.questions.descriptions.${kind}`, { period: list.period })}</DialogDescription>
        </DialogHeader>
        {open && kind === 'aiSearches' && <AISearchItems {...props} />}
        {open && kind === 'inlineQuestions' && <InlineQuestionItems {...props} />}
        {open && kind === 'askedQuestions' && <AskedQuestionItems {...props} />}
      </DialogContent>
    </Dialog>
  )
}

type Page<T> = { total: number; result: T[] }

/** ListBody: loading rows, the error, the empty message, or the items and "Load more". */
function ListBody<T>({
  q,
  empty,
  children,
}: {
  q: UseInfiniteQueryResult<InfiniteData<Page<T>>>
  empty: string
  children: (item: T) => ReactNode
}) {
  const { t } = useTranslation()
  if (q.isPending) return <RowsSkeleton />
  if (!q.data) return <ErrorFallback className="py-6" onRetry={() => void q.refetch()} />
  const items = q.data.pages.flatMap((p) => p.result)
  const total = q.data.pages[q.data.pages.length - 1]?.total ?? items.length
  if (items.length === 0) return <EmptyState className="py-6">{empty}</EmptyState>
  return (
    <>
      <ul className="divide-y border-y" data-testid="details-list" aria-busy={q.isFetchingNextPage}>
        {items.map((item) => children(item))}
      </ul>
      <div className="flex items-center justify-between gap-2 text-xs text-muted-foreground">
        <span>{t('insights.questions.shown', { shown: formatNumber(items.length), total: formatNumber(total) })}</span>
        {q.isFetchingNextPage ? (
          <span role="status" className="flex items-center gap-2">
            <Loader2 className="size-4 animate-spin" aria-hidden />
            {t('insights.questions.loadingMore')}
          </span>
        ) : q.isFetchNextPageError ? (
          <ErrorFallback className="py-0" onRetry={() => void q.fetchNextPage()} />
        ) : (
          q.hasNextPage && (
            <Button variant="outline" size="sm" onClick={() => void q.fetchNextPage()}>
              {t('insights.questions.loadMore')}
            </Button>
          )
        )}
      </div>
    </>
  )
}

function When({ value }: { value: string }) {
  return (
    <time dateTime={value} title={new Date(value).toLocaleString()}>
      {formatPostDate(value)}
    </time>
  )
}

/** PostLink opens the post on the forum's single-post page. */
function PostLink({ communityId, seriesId, postId, onNavigate, children, label }: Omit<ListProps, 'period'> & { postId: string; children: ReactNode; label?: string }) {
  return (
    <Link
      to="/communities/$communityId/series/$seriesId/posts/$postId"
      params={{ communityId, seriesId, postId }}
      onClick={onNavigate}
      aria-label={label}
      className="font-medium text-primary underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
    >
      {children}
    </Link>
  )
}

function AISearchItems({ seriesId, period }: ListProps) {
  const { t } = useTranslation()
  const q = useAISearches(seriesId, period)
  return (
    <ListBody q={q} empty={t('insights.questions.empty.aiSearches')}>
      {(s) => (
        <li key={s.searchId} className="grid gap-1 py-3" data-testid="details-item">
          <p className="break-words text-sm">{s.question}</p>
          <p className="text-xs text-muted-foreground">
            <When value={s.createdOn} />
          </p>
        </li>
      )}
    </ListBody>
  )
}

function AskedQuestionItems(props: ListProps) {
  const { t } = useTranslation()
  const q = useAskedQuestions(props.seriesId, props.period)
  const people = useForumPeople(props.seriesId)
  const anonymous = q.data?.pages[0]?.totalAnonymous ?? 0
  return (
    <>
      {anonymous > 0 && <p className="text-xs text-muted-foreground">{t('insights.questions.anonymousCount', { count: anonymous })}</p>}
      <ListBody q={q} empty={t('insights.questions.empty.askedQuestions')}>
        {(a) => {
          // An anonymous question never names its asker here (spec 001 §6).
          const author = a.as === 'anonymous' || !a.creatorId ? t('insights.questions.anonymous') : (people.data?.get(a.creatorId) ?? t('insights.questions.someone'))
          return (
            <li key={a.threadId} className="grid gap-1 py-3" data-testid="details-item">
              <PostLink {...props} postId={a.threadId}>
                <span className="line-clamp-3 break-words text-sm">{a.question}</span>
              </PostLink>
              <p className="text-xs text-muted-foreground">
                <span data-testid="details-author">{author}</span> · <When value={a.createdOn} />
              </p>
            </li>
          )
        }}
      </ListBody>
    </>
  )
}

function InlineQuestionItems(props: ListProps) {
  const { t } = useTranslation()
  const q = useInlineQuestions(props.seriesId, props.period)
  const people = useForumPeople(props.seriesId)
  return (
    <ListBody q={q} empty={t('insights.questions.empty.inlineQuestions')}>
      {(m) => (
        <li key={m.messageId} className="grid gap-1.5 py-3" data-testid="details-item">
          <ul className="grid gap-1">
            {m.questions.map((question, i) => (
              <li key={i} className="break-words border-l-2 border-chart-1 pl-2 text-sm">
                {question}
              </li>
            ))}
          </ul>
          <p className="text-xs text-muted-foreground">
            <span data-testid="details-author">{people.data?.get(m.creatorId) ?? t('insights.questions.someone')}</span> · <When value={m.createdOn} /> ·{' '}
            <PostLink {...props} postId={m.threadId} label={`${t('insights.questions.viewPost')}: ${m.questions[0] ?? ''}`}>
              {t('insights.questions.viewPost')}
            </PostLink>
          </p>
        </li>
      )}
    </ListBody>
  )
}
