import { useTranslation } from 'react-i18next'
import { Sparkles } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { formatPostDate } from '@/lib/format-date'
import { cn } from '@/lib/utils'
import { AnswerText, Sources, type ForumPlace } from '@/components/ai-answer'

export type AIChatMessage = Schemas['AIChatMessage']

/**
 * AIChat is the view of a shared AI search conversation (spec 001 §3 "AI
 * chat message", §4 "Post kind"): the AI's answers (role other) on the
 * left, the asker's questions (role user) on the right, each with its date
 * (spec 001 §9). An answer keeps its citation links and its Sources list,
 * from the sources the post kept (issue 20); where the forum's place is not
 * known, or a chat was shared before sources were kept, its [n] markers
 * stay text.
 */
export function AIChat({ chat, asker, place }: { chat: AIChatMessage[]; asker: string; place?: ForumPlace | null }) {
  const { t } = useTranslation()
  return (
    <ol className="grid gap-3" aria-label={t('feed.aiChat.label')} data-testid="ai-chat">
      {chat.map((m, i) => {
        const mine = m.role === 'user'
        return (
          <li key={i} className={cn('flex flex-col gap-1', mine ? 'items-end' : 'items-start')} data-role={m.role} data-testid="ai-chat-message">
            <span className="flex items-center gap-1 text-xs font-medium text-muted-foreground">
              {!mine && <Sparkles aria-hidden className="size-3.5 text-primary" />}
              {mine ? asker || t('feed.aiChat.asker') : t('feed.aiChat.ai')}
              <span aria-hidden>·</span>
              <time dateTime={m.createdOn} className="font-normal">
                {formatPostDate(m.createdOn)}
              </time>
            </span>
            {mine || !place ? (
              <p
                className={cn(
                  'max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm',
                  mine ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground',
                )}
              >
                {m.content}
              </p>
            ) : (
              <div className="grid max-w-[85%] gap-2 rounded-lg bg-muted px-3 py-2 text-foreground">
                <AnswerText text={m.content} posts={m.sources} place={place} />
                {m.sources && <Sources posts={m.sources} place={place} />}
              </div>
            )}
          </li>
        )
      })}
    </ol>
  )
}
