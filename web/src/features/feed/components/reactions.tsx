import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { SmilePlus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { PersonAvatar } from '@/components/ui/avatar'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Skeleton } from '@/components/ui/skeleton'
import { ErrorFallback } from '@/components/ui/states'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { ReactionChoices } from '@/components/reaction-choices'
import { REACTION_GLYPHS, REACTION_KINDS, type ReactionKind } from '@/lib/reactions'
import { cn } from '@/lib/utils'
import { useReact, type ReactionTarget } from '../api/react'
import { useReactions } from '../api/list-reactions'
import type { ReactionStats } from '../lib/thread-cache'

type Reactable = { reactions: ReactionStats; myReaction: ReactionKind | null }

/**
 * Reactions is the reaction bar of a post or comment: the picker (the
 * same reaction again clears it) and the counts, which open the list of who
 * reacted. onReact tells the feed the member interacted (the unread mark).
 */
export function Reactions({ target, item, onReact, compact }: { target: ReactionTarget; item: Reactable; onReact?: () => void; compact?: boolean }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [listOpen, setListOpen] = useState(false)
  const mutation = useReact(target)
  const mine = item.myReaction
  const choose = (next: ReactionKind | null) => {
    setOpen(false)
    onReact?.()
    mutation.mutate(next)
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Popover open={open} onOpenChange={setOpen}>
        <PopoverTrigger asChild>
          <Button
            variant={mine ? 'secondary' : 'ghost'}
            size="sm"
            className={cn('h-8', compact && 'h-7 px-2')}
            aria-label={mine ? t('feed.reactions.yours', { kind: t(`feed.reactions.kind.${mine}`) }) : t('feed.reactions.react')}
            data-testid="reaction-trigger"
          >
            {mine ? <span aria-hidden>{REACTION_GLYPHS[mine]}</span> : <SmilePlus aria-hidden />}
            <span aria-hidden={!!mine}>{mine ? t(`feed.reactions.kind.${mine}`) : t('feed.reactions.react')}</span>
          </Button>
        </PopoverTrigger>
        <PopoverContent className="w-auto p-1" align="start" aria-label={t('feed.reactions.pick')}>
          <ReactionChoices label={t('feed.reactions.pick')} chosen={mine} onChoose={choose} removeLabel={t('feed.reactions.remove')} />
        </PopoverContent>
      </Popover>
      {item.reactions.totalCount > 0 && (
        <>
          <button
            type="button"
            className="flex items-center gap-1 rounded-md px-1.5 py-1 text-xs text-muted-foreground hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            onClick={() => setListOpen(true)}
            data-testid="reaction-counts"
          >
            {REACTION_KINDS.filter((k) => item.reactions[k] > 0).map((k) => (
              <span key={k} className="flex items-center gap-0.5" aria-hidden>
                <span>{REACTION_GLYPHS[k]}</span>
                <span>{item.reactions[k]}</span>
              </span>
            ))}
            <span className="sr-only">
              {REACTION_KINDS.filter((k) => item.reactions[k] > 0)
                .map((k) => `${t(`feed.reactions.kind.${k}`)} ${item.reactions[k]}`)
                .join(', ')}
              ,{' '}
            </span>
            {/* One kind's count is the total: said again only to a screen reader. */}
            <span className={cn(REACTION_KINDS.filter((k) => item.reactions[k] > 0).length < 2 && 'sr-only')} data-testid="reaction-total">
              {t('feed.reactions.total', { count: item.reactions.totalCount })}
            </span>
          </button>
          <ReactionsDialog open={listOpen} onOpenChange={setListOpen} target={target} stats={item.reactions} />
        </>
      )}
    </div>
  )
}

/** ReactionsDialog lists who reacted, in a tab per kind (GET /api/thread/{id}/reactions). */
export function ReactionsDialog({
  open,
  onOpenChange,
  target,
  stats,
}: {
  open: boolean
  onOpenChange: (o: boolean) => void
  target: ReactionTarget
  stats: ReactionStats
}) {
  const { t } = useTranslation()
  const q = useReactions(target.threadId, target.replyId, open)
  const results = q.data?.results ?? []
  const kinds = REACTION_KINDS.filter((k) => stats[k] > 0 || results.some((r) => r.reaction === k))
  const list = (kind?: ReactionKind) => {
    const rows = kind ? results.filter((r) => r.reaction === kind) : results
    if (rows.length === 0) return <p className="py-6 text-center text-sm text-muted-foreground">{t('feed.reactions.none')}</p>
    return (
      <ul className="grid max-h-80 gap-2 overflow-y-auto">
        {rows.map((r) => (
          <li key={`${r.actor.userId}-${r.reaction}`} className="flex items-center gap-3">
            <PersonAvatar person={{ id: r.actor.userId, firstName: r.actor.firstName, lastName: r.actor.lastName, avatar: r.actor.avatar }} className="size-8" />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium">
                {r.actor.firstName} {r.actor.lastName}
              </p>
              {(r.actor.jobTitle || r.actor.company) && (
                <p className="truncate text-xs text-muted-foreground">{[r.actor.jobTitle, r.actor.company].filter(Boolean).join(', ')}</p>
              )}
            </div>
            <span aria-label={t(`feed.reactions.kind.${r.reaction}`)} role="img">
              {REACTION_GLYPHS[r.reaction]}
            </span>
          </li>
        ))}
      </ul>
    )
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('feed.reactions.dialogTitle')}</DialogTitle>
          <DialogDescription className="sr-only">{t('feed.reactions.total', { count: stats.totalCount })}</DialogDescription>
        </DialogHeader>
        {q.isPending ? (
          <div className="grid gap-2">
            <Skeleton className="h-8 w-full" />
            <Skeleton className="h-8 w-full" />
          </div>
        ) : q.isError ? (
          <ErrorFallback message={t('feed.reactions.failed')} onRetry={() => void q.refetch()} />
        ) : (
          <Tabs defaultValue="all">
            <TabsList className="h-auto flex-wrap justify-start">
              <TabsTrigger value="all">{t('feed.reactions.all', { count: results.length })}</TabsTrigger>
              {kinds.map((k) => (
                <TabsTrigger key={k} value={k} aria-label={`${t(`feed.reactions.kind.${k}`)} ${results.filter((r) => r.reaction === k).length}`}>
                  <span aria-hidden>{REACTION_GLYPHS[k]}</span>
                  <span aria-hidden>{results.filter((r) => r.reaction === k).length}</span>
                </TabsTrigger>
              ))}
            </TabsList>
            <TabsContent value="all">{list()}</TabsContent>
            {kinds.map((k) => (
              <TabsContent key={k} value={k}>
                {list(k)}
              </TabsContent>
            ))}
          </Tabs>
        )}
      </DialogContent>
    </Dialog>
  )
}
