import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useNavigate } from '@tanstack/react-router'
import { Bell, BellOff, UserRound } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Skeleton } from '@/components/ui/skeleton'
import { Tip } from '@/components/ui/tooltip'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useMediaQuery } from '@/hooks/use-media-query'
import { formatPostDate } from '@/lib/format-date'
import { idList, personalizationQuery, usePersonalization, useUpdatePersonalization, withId, type Personalization } from '@/lib/personalization'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { notificationKeys, notificationsQuery } from '../api/get-notifications'
import type { Notification } from '../api/types'

/** The personalization keys of the posts' notifications (spec 000 §3, §4). */
export const NOTIFICATION_KEYS = {
  lastSeenAt: 'notifications.posts.lastSeenAt',
  read: 'notifications.posts.read',
  dismissed: 'notifications.posts.dismissed',
} as const

/** Wide screens open the list as a popover under the bell; small ones as a full-screen dialog. */
const WIDE = '(min-width: 768px)'

/**
 * NotificationsBell is the top bar's bell (spec 000 §2.2) with its unread
 * dot and its tooltip, and the notifications list it opens (§2.5). Closing the list marks
 * everything in it seen (notifications.posts.lastSeenAt).
 */
export function NotificationsBell() {
  const { t } = useTranslation()
  const userId = useCurrentUser()?.user.id ?? ''
  const qc = useQueryClient()
  const wide = useMediaQuery(WIDE)
  const [open, setOpen] = useState(false)
  const list = useInfiniteQuery({ ...notificationsQuery(), enabled: !!userId })
  const update = useUpdatePersonalization(userId)
  const unread = list.data?.pages[0]?.unread ?? 0

  /**
   * save stores what change makes of the member's personalization, read
   * first if it is not yet (a list written from nothing would drop what it
   * held), then reads the notifications again.
   */
  const save = (change: (p: Personalization) => Personalization) =>
    void qc.ensureQueryData(personalizationQuery(userId)).then(
      (p) => update.mutate(change(p), { onSuccess: () => void qc.invalidateQueries({ queryKey: notificationKeys.all }) }),
      (e: unknown) => console.warn('notifications: the personalization could not be read', e),
    )
  /** close closes the list, marking it seen, with what else is to be stored (what was viewed). */
  const close = (also: (p: Personalization) => Personalization = () => ({})) => {
    setOpen(false)
    save((p) => ({ [NOTIFICATION_KEYS.lastSeenAt]: new Date().toISOString(), ...also(p) }))
  }
  const onOpenChange = (o: boolean) => (o ? setOpen(true) : close())

  const bell = (
    <Button variant="ghost" size="icon" className="relative" aria-label={t('notifications.open')} data-testid="notifications-button" onClick={wide ? undefined : () => setOpen(true)}>
      <Bell aria-hidden />
      {unread > 0 && <span role="img" aria-label={t('notifications.unread')} className="absolute right-1.5 top-1.5 size-2.5 rounded-full bg-red-500" />}
    </Button>
  )
  const body = open && <NotificationsList onClose={close} onSave={save} />
  if (wide) {
    return (
      <Popover open={open} onOpenChange={onOpenChange}>
        <Tip label={t('notifications.open')}>
          <PopoverTrigger asChild>{bell}</PopoverTrigger>
        </Tip>
        <PopoverContent align="end" className="flex max-h-[min(36rem,80vh)] w-96 flex-col p-0" aria-label={t('notifications.title')}>
          <h2 className="border-b px-4 py-3 text-sm font-semibold">{t('notifications.title')}</h2>
          {body}
        </PopoverContent>
      </Popover>
    )
  }
  return (
    <>
      <Tip label={t('notifications.open')}>{bell}</Tip>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="flex h-dvh max-w-none flex-col gap-0 rounded-none border-0 p-0">
          <DialogTitle className="border-b px-4 py-3 text-base">{t('notifications.title')}</DialogTitle>
          <DialogDescription className="sr-only">{t('notifications.description')}</DialogDescription>
          {body}
        </DialogContent>
      </Dialog>
    </>
  )
}

/**
 * NotificationsList is the list itself: newest first, 20 at a time and more
 * when its end scrolls into view; the dismissed ones hidden at once.
 */
type Change = (p: Personalization) => Personalization

function NotificationsList({ onClose, onSave }: { onClose: (also?: Change) => void; onSave: (change: Change) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const list = useInfiniteQuery(notificationsQuery())
  const personalization = usePersonalization()
  const dismissed = new Set(idList(personalization.data, NOTIFICATION_KEYS.dismissed))
  const items = (list.data?.pages.flatMap((p) => p.results) ?? []).filter((n) => !dismissed.has(n.id))
  const end = useRef<HTMLDivElement>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list
  useEffect(() => {
    const el = end.current
    if (!el || !hasNextPage || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage()
    })
    io.observe(el)
    return () => io.disconnect()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, items.length])

  const view = (n: Notification) => {
    onClose((p) => ({ [NOTIFICATION_KEYS.read]: withId(idList(p, NOTIFICATION_KEYS.read), n.id) }))
    const { seriesId } = n.context
    // A community-join has no forum: it opens the community's page, its forums.
    if (!seriesId) return void navigate({ to: '/communities/$communityId', params: { communityId: n.context.communityId } })
    // Access given to a forum (forum-access) is about the forum: it opens there.
    if (!n.postId) return void navigate({ to: '/communities/$communityId/series/$seriesId', params: { communityId: n.context.communityId, seriesId } })
    void navigate({
      to: '/communities/$communityId/series/$seriesId/posts/$postId',
      params: { communityId: n.context.communityId, seriesId, postId: n.postId },
      // A Meet Up notification opens its post without a comment or mention
      // to point at; a comment, or one mentioning the member, is scrolled to.
      search: { reason: n.type === 'comment' || n.type === 'mention' ? n.type : undefined, reply: n.replyId ?? undefined },
    })
  }
  const dismiss = (n: Notification) => onSave((p) => ({ [NOTIFICATION_KEYS.dismissed]: withId(idList(p, NOTIFICATION_KEYS.dismissed), n.id) }))

  if (list.isPending)
    return (
      <ul aria-busy="true" aria-label={t('notifications.title')} className="grid gap-3 p-4">
        {Array.from({ length: 3 }, (_, i) => (
          <li key={i} className="flex gap-3">
            <Skeleton className="size-9 rounded-full" />
            <Skeleton className="h-12 flex-1" />
          </li>
        ))}
      </ul>
    )
  if (list.isError) return <ErrorFallback message={t('notifications.failed')} onRetry={() => void list.refetch()} />
  if (items.length === 0) return <EmptyState icon={<BellOff />}>{t('notifications.empty')}</EmptyState>
  return (
    <div className="min-h-0 flex-1 overflow-y-auto" data-testid="notifications-list">
      <ul aria-label={t('notifications.title')} aria-busy={isFetchingNextPage} className="divide-y">
        {items.map((n) => (
          <NotificationItem key={n.id} n={n} onView={() => view(n)} onDismiss={() => dismiss(n)} />
        ))}
      </ul>
      <div ref={end} aria-hidden className="h-px" data-testid="notifications-end" />
    </div>
  )
}

/** preview is the text of a notification, its mentions shown as @Name. */
export const preview = (raw: string) => raw.replace(/\[([^\]\n]+)\]\([0-9a-fA-F-]{36}\)/g, '@$1')

function NotificationItem({ n, onView, onDismiss }: { n: Notification; onView: () => void; onDismiss: () => void }) {
  const { t } = useTranslation()
  // A community-join names the community, not a person (nobody is its author).
  const name = n.author ? `${n.author.firstName} ${n.author.lastName}`.trim() : n.type === 'community-join' ? n.context.communityName : t('notifications.anonymous')
  return (
    <li className={cn('grid gap-2 px-4 py-3', n.isUnread && 'bg-accent/40')} data-testid="notification" aria-label={t(`notifications.kind.${n.type}`, { name })}>
      <div className="flex items-start gap-3">
        {n.author ? (
          <PersonAvatar person={{ id: n.author.userId, firstName: n.author.firstName, lastName: n.author.lastName, avatar: n.author.avatar }} className="size-9" />
        ) : (
          <span aria-hidden className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted">
            <UserRound className="size-5 text-muted-foreground" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <p className="text-sm">
            <span className="font-medium" data-testid="notification-author">
              {name}
            </span>{' '}
            {t(`notifications.action.${n.type}`)}
          </p>
          <p className="truncate text-xs text-muted-foreground">
            <span data-testid="notification-forum">{n.context.seriesName ?? n.context.communityName}</span> · <time dateTime={n.createdOn}>{formatPostDate(n.createdOn)}</time>
          </p>
          <p className="mt-1 line-clamp-2 text-sm text-muted-foreground" data-testid="notification-preview">
            {preview(n.raw)}
          </p>
        </div>
        {n.isUnread && <span role="img" aria-label={t('notifications.new')} className="mt-1 size-2 shrink-0 rounded-full bg-red-500" />}
      </div>
      <div className="flex justify-end gap-2">
        <Button size="sm" variant="ghost" onClick={onDismiss}>
          {t('notifications.dismiss')}
        </Button>
        <Button size="sm" onClick={onView}>
          {t('notifications.view')}
        </Button>
      </div>
    </li>
  )
}
