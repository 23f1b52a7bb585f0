import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { useOpenProfile } from '@/lib/profile-opener'
import { cn } from '@/lib/utils'
import { useHashtagFilter } from '../lib/hashtag-filter'
import { tokenize } from '../lib/tokenize'
import { WebLink } from './web-link'

/**
 * RichText shows the text of a post or comment: mentions as chips,
 * hashtags, and links that open in a new tab once the member confirms. Every token becomes a React
 * element or a text node, so markup in the text is shown as text.
 */
export function RichText({ raw, className }: { raw: string; className?: string }) {
  const { t } = useTranslation()
  const tokens = useMemo(() => tokenize(raw), [raw])
  const filter = useHashtagFilter()
  return (
    <p className={cn('whitespace-pre-wrap break-words text-sm leading-relaxed', className)} data-testid="rich-text">
      {tokens.map((tok, i) => {
        switch (tok.type) {
          case 'text':
            return tok.text
          case 'link':
            return (
              <WebLink key={i} href={tok.href} className="text-primary underline underline-offset-2 hover:no-underline">
                {tok.text}
              </WebLink>
            )
          case 'hashtag':
            return filter ? (
              <button
                key={i}
                type="button"
                className="cursor-pointer font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-hashtag={tok.name}
                onClick={() => filter(tok.name)}
                aria-label={t('feed.hashtagShow', { name: tok.name })}
              >
                #{tok.name}
              </button>
            ) : (
              // Where no feed can show the hashtag's posts, plain text in
              // the text's colour, so nothing looks like a link.
              <span key={i} className="font-medium" data-hashtag={tok.name} title={t('feed.hashtag', { name: tok.name })}>
                #{tok.name}
              </span>
            )
          case 'mention':
            return <Mention key={i} userId={tok.userId} display={tok.display} />
        }
      })}
    </p>
  )
}

/** Mention is a mention chip: a button that opens the person's profile dialog where one is mounted. */
function Mention({ userId, display }: { userId: string; display: string }) {
  const { t } = useTranslation()
  const open = useOpenProfile()
  const className = 'inline-flex items-baseline rounded-full bg-muted px-1.5 font-medium'
  if (!open) {
    return (
      <span className={className} data-mention={userId} aria-label={t('feed.mention', { name: display })}>
        @{display}
      </span>
    )
  }
  return (
    <button
      type="button"
      className={cn(className, 'cursor-pointer hover:bg-muted/70 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring')}
      data-mention={userId}
      aria-label={t('profile.open', { name: display })}
      onClick={() => open(userId)}
    >
      @{display}
    </button>
  )
}
