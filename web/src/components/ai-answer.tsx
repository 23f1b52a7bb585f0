import { Fragment, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import type { Schemas } from '@/api/client'

/** AISearchSource is a post an AI answer's [n] marker cites. */
export type AISearchSource = Schemas['AISearchSource']

/**
 * The AI search's answer as text with citation links and its Sources list:
 * shared by the AI search box and the shared AI chat post of the feed.
 */
export type ForumPlace = { communityId: string; seriesId: string }

/** postOf is the post a source opens: a comment or reply opens its post. */
export const postOf = (s: AISearchSource) => s.threadId || s.id

/** splitCitations cuts an answer into text and its [n] markers. */
export function splitCitations(text: string): Array<string | number> {
  const out: Array<string | number> = []
  const re = /\[(\d{1,3})\]/g
  let at = 0
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (m.index > at) out.push(text.slice(at, m.index))
    out.push(Number(m[1]))
    at = m.index + m[0].length
  }
  if (at < text.length) out.push(text.slice(at))
  return out
}

/**
 * AnswerText is an answer with each citation marker [n] made a link to the
 * cited post (posts[n-1], by its n), on the forum's single-post route. A
 * marker that names no retrieved post stays text.
 */
export function AnswerText({ text, posts, place }: { text: string; posts?: AISearchSource[]; place: ForumPlace }) {
  const { t } = useTranslation()
  return (
    <p className="whitespace-pre-wrap break-words text-sm leading-relaxed" data-testid="ai-answer-text">
      {splitCitations(text).map((part, i) => {
        if (typeof part === 'string') return <Fragment key={i}>{part}</Fragment>
        const source = posts?.find((p) => p.n === part)
        if (!source) return <Fragment key={i}>[{part}]</Fragment>
        return (
          <Link
            key={i}
            to="/communities/$communityId/series/$seriesId/posts/$postId"
            params={{ ...place, postId: postOf(source) }}
            aria-label={t('aiSearch.source', { n: part })}
            title={source.excerpt}
            className="mx-0.5 rounded-sm px-0.5 font-medium text-primary underline-offset-2 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            data-testid="ai-citation"
          >
            [{part}]
          </Link>
        )
      })}
    </p>
  )
}

/** Sources lists the retrieved posts with their excerpts, each opening its post. */
export function Sources({ posts, place }: { posts: AISearchSource[]; place: ForumPlace }) {
  const { t } = useTranslation()
  const id = useId()
  if (posts.length === 0) return null
  return (
    <div className="grid gap-2 text-sm" data-testid="ai-sources">
      <p id={id} className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
        {t('aiSearch.sources')}
      </p>
      <ol className="grid gap-2" aria-labelledby={id}>
        {posts.map((p) => (
          <li key={p.n} className="flex gap-2">
            <span className="shrink-0 font-mono text-xs leading-5 text-muted-foreground" aria-hidden>
              [{p.n}]
            </span>
            <Link
              to="/communities/$communityId/series/$seriesId/posts/$postId"
              params={{ ...place, postId: postOf(p) }}
              className="min-w-0 rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <span className="sr-only">{t('aiSearch.source', { n: p.n })}: </span>
              <span className="mr-1 text-xs font-medium text-muted-foreground">{t(`aiSearch.kinds.${p.kind}`)}</span>
              <span className="line-clamp-2">{p.excerpt}</span>
            </Link>
          </li>
        ))}
      </ol>
    </div>
  )
}
