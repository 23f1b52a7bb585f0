import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { BookOpen, Clock, GraduationCap, PartyPopper, Sparkles, Users, Video } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'

/** What the page knows of the forum's community, from the user's community list. */
export type CommunityInfo = { name: string; price: number; currency: string }

const FEATURES = [
  { key: 'peerLearning', icon: Users },
  { key: 'expertCoaching', icon: GraduationCap },
  { key: 'videoMeetUps', icon: Video },
  { key: 'exclusiveContent', icon: BookOpen },
  { key: 'socialFeatures', icon: Sparkles },
  { key: 'accessible', icon: Clock },
] as const

/**
 * SubscribePrompt opens over the forum page when the user is not subscribed
 * to the forum (spec 001 §2, 000 §4). It cannot be dismissed: closing it in
 * any way (Later, the close button, Escape) leaves for /home, and a click
 * outside does nothing. JOIN NOW comes with checkout (subscriptions); until
 * then the prompt says what the forum is part of and leads home.
 */
export function SubscribePrompt({ forumName, community }: { forumName: string; community?: CommunityInfo }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const leave = () => void navigate({ to: '/home', replace: true })
  const value =
    community && community.price > 0
      ? new Intl.NumberFormat('en', { style: 'currency', currency: community.currency }).format(community.price / 100)
      : undefined
  return (
    <Dialog open onOpenChange={(o) => !o && leave()}>
      <DialogContent
        className="max-h-[90dvh] overflow-y-auto sm:max-w-xl"
        onPointerDownOutside={(e) => e.preventDefault()}
        onInteractOutside={(e) => e.preventDefault()}
        data-testid="subscribe-prompt"
      >
        <DialogHeader>
          <DialogTitle className="text-xl">{t('forum.subscribe.title')}</DialogTitle>
          <DialogDescription>{t('forum.subscribe.description', { name: forumName })}</DialogDescription>
        </DialogHeader>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {FEATURES.map(({ key, icon: Icon }) => (
            <li key={key} className="flex flex-col items-center gap-2 rounded-md border p-3 text-center text-sm font-medium">
              <Icon aria-hidden className="size-6 text-primary" />
              {t(`forum.subscribe.features.${key}`)}
            </li>
          ))}
        </ul>
        <section className="grid gap-1 rounded-md bg-muted p-3 text-sm" aria-labelledby="subscribe-eligible">
          <p id="subscribe-eligible" className="flex items-center gap-2 font-semibold">
            <PartyPopper aria-hidden className="size-4" />
            {t('forum.subscribe.eligible')}
          </p>
          <p>{forumName}</p>
          <p className="text-muted-foreground">
            {community ? t('forum.subscribe.partOf', { community: community.name }) : t('forum.subscribe.partOfUnnamed')}
          </p>
          <p className="text-muted-foreground">
            {value ? t('forum.subscribe.complimentary', { value }) : t('forum.subscribe.complimentaryFree')}
          </p>
        </section>
        <DialogFooter>
          <Button variant="outline" onClick={leave}>
            {t('forum.subscribe.later')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
