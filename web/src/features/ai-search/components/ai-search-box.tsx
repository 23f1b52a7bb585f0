import { useId, useState, type FormEvent } from 'react'
import { useQueries, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Loader2, Search, Share2, Sparkles, X } from 'lucide-react'
import { isApiError } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/utils'
import { aiSearchQuery, type Answer, type Question } from '../api/ai-search'
import { useShareChat } from '../api/share-chat'
import { useConversation } from '../hooks/use-conversation'
import { AnswerText, Sources, type ForumPlace } from '@/components/ai-answer'

export type AISearchBoxProps = ForumPlace & {
  /** The channel searched and shared to: the feed's current one. */
  channelId: string
  className?: string
}

/** MAX_QUESTION: the API takes questions of 1 to 1000 characters. */
export const MAX_QUESTION = 1000

/**
 * AISearchBox is the forum's AI search (spec 001 §2, §4 "AI search flow",
 * §5): a submitted question streams its answer (the retrieved posts, the
 * text as it grows, then the final answer whose [n] markers link to the
 * cited posts); a follow-up, possible once an answer exists, continues the
 * same search; Share posts the conversation to the forum, and Clear starts
 * over. Answers are cached with infinite staleness (spec 001 §9).
 */
export function AISearchBox({ channelId, communityId, seriesId, className }: AISearchBoxProps) {
  const { t } = useTranslation()
  const queryClient = useQueryClient()
  const headingId = useId()
  const [questions, setQuestions] = useConversation(channelId)
  const [query, setQuery] = useState(() => questions[0]?.q ?? '')
  const [followUp, setFollowUp] = useState('')
  const share = useShareChat(channelId)
  const results = useQueries({ queries: questions.map((q) => aiSearchQuery(channelId, q)) })

  const searchId = results[0]?.data?.searchId
  const streaming = results.some((r) => r.fetchStatus === 'fetching')
  const hasAnswer = results.some((r) => !!r.data?.final)
  const canFollowUp = hasAnswer && !streaming && !!searchId

  // Answers still streaming (or cut off) are dropped, which also cancels
  // their requests; finished ones stay cached.
  const dropUnfinished = () => {
    for (const q of questions) {
      const key = aiSearchQuery(channelId, q).queryKey
      if (!queryClient.getQueryData<Answer>(key)?.final) queryClient.removeQueries({ queryKey: key, exact: true })
    }
  }
  const clear = () => {
    dropUnfinished()
    setQuestions([])
    setQuery('')
    setFollowUp('')
  }
  const ask = (e: FormEvent) => {
    e.preventDefault()
    const q = query.trim()
    if (!q) return
    dropUnfinished()
    setFollowUp('')
    setQuestions([{ q, turn: 0 }])
  }
  const askFollowUp = (e: FormEvent) => {
    e.preventDefault()
    const q = followUp.trim()
    if (!q || !canFollowUp) return
    setQuestions([...questions, { q, searchId, turn: questions.length }])
    setFollowUp('')
  }
  const shareChat = () => {
    if (!searchId) return
    share.mutate(searchId, {
      onSuccess: () => {
        toast({ title: t('aiSearch.shared'), variant: 'success' })
        clear()
      },
    })
  }

  const place = { communityId, seriesId }
  return (
    <section
      aria-labelledby={headingId}
      className={cn('grid gap-3 rounded-lg border bg-card p-3 text-card-foreground shadow-sm', className)}
      data-testid="ai-search"
    >
      <h2 id={headingId} className="sr-only">
        {t('aiSearch.title')}
      </h2>
      <form role="search" aria-label={t('aiSearch.label')} onSubmit={ask} className="flex items-center gap-2">
        <div className="relative min-w-0 flex-1">
          <Sparkles aria-hidden className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-primary" />
          <Input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            aria-label={t('aiSearch.label')}
            placeholder={t('aiSearch.placeholder')}
            maxLength={MAX_QUESTION}
            // Clear (beside Ask) resets the whole search; the browser's own clear button would only empty the box.
            className="pl-8 [&::-webkit-search-cancel-button]:hidden"
            enterKeyHint="search"
          />
        </div>
        <Button type="submit" disabled={!query.trim()}>
          <Search aria-hidden />
          {t('aiSearch.ask')}
        </Button>
        {(questions.length > 0 || query) && (
          <Button type="button" variant="ghost" size="icon" onClick={clear} aria-label={t('aiSearch.clear')} title={t('aiSearch.clear')}>
            <X aria-hidden />
          </Button>
        )}
      </form>

      {questions.length > 0 && (
        <>
          <ol className="grid gap-4" aria-label={t('aiSearch.conversation')} aria-live="polite" aria-busy={streaming} data-testid="ai-conversation">
            {questions.map((q, i) => (
              <Turn key={`${q.turn}-${q.q}`} question={q} result={results[i]!} place={place} />
            ))}
          </ol>

          <form onSubmit={askFollowUp} className="grid gap-1">
            <div className="flex items-center gap-2">
              <Input
                value={followUp}
                onChange={(e) => setFollowUp(e.target.value)}
                aria-label={t('aiSearch.followUpLabel')}
                placeholder={t('aiSearch.followUpPlaceholder')}
                maxLength={MAX_QUESTION}
                disabled={!canFollowUp}
                aria-describedby={canFollowUp ? undefined : `${headingId}-wait`}
                className="min-w-0 flex-1"
              />
              <Button type="submit" variant="secondary" disabled={!canFollowUp || !followUp.trim()}>
                {t('aiSearch.send')}
              </Button>
            </div>
            {!canFollowUp && (
              <p id={`${headingId}-wait`} className="text-xs text-muted-foreground">
                {t('aiSearch.followUpWaiting')}
              </p>
            )}
          </form>

          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="outline" size="sm" onClick={clear}>
              <X aria-hidden />
              {t('aiSearch.clear')}
            </Button>
            <Button type="button" size="sm" onClick={shareChat} disabled={!canFollowUp || share.isPending}>
              {share.isPending ? <Loader2 aria-hidden className="animate-spin" /> : <Share2 aria-hidden />}
              {share.isPending ? t('aiSearch.sharing') : t('aiSearch.share')}
            </Button>
          </div>
        </>
      )}
    </section>
  )
}

/** Turn is one question and its answer, in whatever state it is. */
function Turn({ question, result, place }: { question: Question; result: UseQueryResult<Answer>; place: ForumPlace }) {
  const { t } = useTranslation()
  const data = result.data
  const fetching = result.fetchStatus === 'fetching'
  const text = data?.final?.answer ?? data?.text ?? ''
  return (
    <li className="grid gap-2" data-testid="ai-turn">
      <div className="ml-auto max-w-[85%] rounded-lg bg-primary px-3 py-2 text-sm text-primary-foreground" data-testid="ai-question">
        <span className="sr-only">{t('aiSearch.you')}: </span>
        {question.q}
      </div>
      <div className="mr-auto grid w-full max-w-[95%] gap-2 rounded-lg bg-muted px-3 py-2" data-testid="ai-answer" data-done={!!data?.final || undefined}>
        <span className="flex items-center gap-1 text-xs font-semibold text-muted-foreground">
          <Sparkles aria-hidden className="size-3.5 text-primary" />
          {t('aiSearch.ai')}
        </span>
        {result.isError ? (
          <Failure error={result.error} onRetry={() => void result.refetch()} />
        ) : (
          <>
            {data?.posts?.length === 0 && (
              <p className="text-xs text-muted-foreground" data-testid="ai-no-posts">
                {t('aiSearch.noPosts')}
              </p>
            )}
            {text ? (
              // The text numbers its markers as cited, and only the answer
              // event says which post each number is: until then they link nowhere.
              <AnswerText text={text} posts={data?.final?.sources} place={place} />
            ) : (
              fetching && (
                <p className="flex items-center gap-2 text-sm text-muted-foreground">
                  <Loader2 aria-hidden className="size-4 animate-spin" />
                  {data?.posts ? t('aiSearch.writing') : t('aiSearch.searching')}
                </p>
              )
            )}
            {!fetching && data && !data.final && <Failure message={t('aiSearch.cutOff')} onRetry={() => void result.refetch()} />}
            {data?.final && data.final.sources.length > 0 && <Sources posts={data.final.sources} place={place} />}
          </>
        )}
      </div>
    </li>
  )
}

/** Failure says why there is no answer: the API's message for a refused question, else a generic one. */
function Failure({ error, message, onRetry }: { error?: unknown; message?: string; onRetry: () => void }) {
  const { t } = useTranslation()
  const text = message ?? (isApiError(error) && error.status >= 400 && error.status < 500 ? error.message : t('aiSearch.failed'))
  return (
    <div role="alert" className="flex flex-wrap items-center gap-2 text-sm text-destructive" data-testid="ai-error">
      <span>{text}</span>
      <Button type="button" variant="outline" size="sm" onClick={onRetry}>
        {t('aiSearch.retry')}
      </Button>
    </div>
  )
}
