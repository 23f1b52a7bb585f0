import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'
import { tokenize } from '../lib/tokenize'

/**
 * RichText shows the text of a post or comment: mentions as chips,
 * hashtags, and links that open in a new tab. Every token becomes a React
 * element or a text node, so markup in the text is shown as text.
 */
export function RichText({ raw, className }: { raw: string; className?: string }) {
  const { t } = useTranslation()
  const tokens = useMemo(() => tokenize(raw), [raw])
  return (
    <p className={cn('whitespace-pre-wrap break-words text-sm leading-relaxed', className)} data-testid="rich-text">
      {tokens.map((tok, i) => {
        switch (tok.type) {
          case 'text':
            return tok.text
          case 'link':
            return (
              <a key={i} href={tok.href} target="_blank" rel="noopener noreferrer nofollow ugc" className="text-primary underline underline-offset-2 hover:no-underline">
                {tok.text}
              </a>
            )
          case 'hashtag':
            return (
              // Plain text in the text's colour: nothing to click until the
              // hashtag search exists, so nothing looks like a link.
              <span key={i} className="font-medium" data-hashtag={tok.name} title={t('feed.hashtag', { name: tok.name })}>
                #{tok.name}
              </span>
            )
          case 'mention':
            return (
              <span
                key={i}
                // A chip in the text's colour, not a link's: the profile
                // dialog it would open does not exist yet.
                className="inline-flex items-baseline rounded-full bg-muted px-1.5 font-medium"
                data-mention={tok.userId}
                aria-label={t('feed.mention', { name: tok.display })}
              >
                @{tok.display}
              </span>
            )
        }
      })}
    </p>
  )
}
