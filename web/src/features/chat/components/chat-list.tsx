import { useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { useVirtualizer } from '@tanstack/react-virtual'
import { Search, Users } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { useCurrentUser } from '@/lib/session-context'
import { channelsQuery } from '../api/list-channels'
import { CRITERIA, peersQuery, type Criterion } from '../api/list-peers'
import type { Peer } from '../api/types'
import { openChat } from '../lib/open-chat'
import { PresenceDot, UnreadDot } from './presence-dot'

/**
 * ChatList is the chat tab's list (spec 002 §2 "Private chat list"): Me,
 * then the peers with their presence and a red dot where a message is
 * unread, with a search by criterion; 25 at a time, more on scrolling.
 */
export function ChatList({ peersKey, meControls }: { peersKey: readonly unknown[]; meControls?: ReactNode }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const [text, setText] = useState('')
  const [criterion, setCriterion] = useState<Criterion>('all')
  const q = useDebouncedValue(text.trim())
  const peers = useInfiniteQuery({ ...peersQuery(peersKey, q, criterion), placeholderData: keepPreviousData })
  const channels = useQuery(channelsQuery())
  const unread = new Set(channels.data?.results.filter((c) => c.hasUnread).map((c) => c.peer.userId))
  const list = peers.data?.pages.flatMap((p) => p.results) ?? []
  const more = () => {
    if (peers.hasNextPage && !peers.isFetchingNextPage) void peers.fetchNextPage()
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="chat-list">
      {me && (
        <div className="flex items-center gap-3 border-b px-3 py-2" data-testid="chat-me">
          <PersonAvatar person={me.user} className="size-9" />
          <span className="flex-1 font-medium">{t('chat.me')}</span>
          {meControls}
        </div>
      )}
      <div className="flex gap-2 border-b px-3 py-2">
        <div className="relative flex-1">
          <Search aria-hidden className="absolute left-2 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <Input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('chat.search')} aria-label={t('chat.search')} className="pl-8" maxLength={200} />
        </div>
        <Select value={criterion} onValueChange={(v) => setCriterion(v as Criterion)}>
          <SelectTrigger className="w-32" aria-label={t('chat.criterion')}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {CRITERIA.map((c) => (
              <SelectItem key={c} value={c}>
                {t(`chat.criteria.${c}`)}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      {peers.isPending && (
        <ul aria-busy="true" aria-label={t('chat.peers')}>
          {Array.from({ length: 10 }, (_, i) => (
            <li key={i} className="flex h-[50px] items-center gap-3 px-3">
              <Skeleton className="size-9 rounded-full" />
              <Skeleton className="h-4 flex-1" />
            </li>
          ))}
        </ul>
      )}
      {peers.isError && <ErrorFallback onRetry={() => void peers.refetch()} />}
      {peers.isSuccess && list.length === 0 && <EmptyState icon={<Users aria-hidden />}>{t('chat.noMembers')}</EmptyState>}
      {list.length > 0 && <PeerRows peers={list} total={peers.data?.pages[0]?.total ?? list.length} unread={unread} onEnd={more} loading={peers.isFetchingNextPage} />}
    </div>
  )
}

/** A peer's row is 50 px high (spec 002 §2). */
const ROW = 50

/**
 * PeerRows is the virtualised list of peers: only the rows in view (and a
 * few around) are in the page, so a community of thousands scrolls as one
 * of ten; reaching the last loaded rows asks for the next page.
 */
function PeerRows({ peers, total, unread, onEnd, loading }: { peers: Peer[]; total: number; unread: Set<string>; onEnd: () => void; loading: boolean }) {
  const { t } = useTranslation()
  const scroller = useRef<HTMLDivElement>(null)
  const rows = useVirtualizer({ count: peers.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 8 })
  const items = rows.getVirtualItems()
  const last = items[items.length - 1]?.index ?? -1
  useEffect(() => {
    if (last >= peers.length - 5) onEnd()
  }, [last, peers.length, onEnd])
  return (
    <div ref={scroller} className="min-h-0 flex-1 overflow-y-auto" data-testid="peer-rows">
      <ul aria-label={t('chat.peers')} aria-busy={loading} className="relative w-full" style={{ height: rows.getTotalSize() }}>
        {items.map((row) => {
          const p = peers[row.index]!
          return (
            <li key={p.id} aria-setsize={total} aria-posinset={row.index + 1} className="absolute inset-x-0 top-0" style={{ height: ROW, transform: `translateY(${row.start}px)` }}>
              <button
                type="button"
                className="flex h-full w-full items-center gap-3 px-3 text-left hover:bg-accent focus-visible:bg-accent focus-visible:outline-none"
                onClick={() => openChat({ userId: p.userId, firstName: p.firstName, lastName: p.lastName, avatar: p.avatar })}
                data-testid="peer"
              >
                <span className="relative">
                  <PersonAvatar person={{ id: p.userId, firstName: p.firstName, lastName: p.lastName, avatar: p.avatar }} className="size-9" />
                  <PresenceDot status={p.status} />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-sm font-medium" data-testid="peer-name">
                    {p.firstName} {p.lastName}
                  </span>
                  {(p.jobTitle || p.company) && <span className="block truncate text-xs text-muted-foreground">{[p.jobTitle, p.company].filter(Boolean).join(' · ')}</span>}
                </span>
                {unread.has(p.userId) && <UnreadDot />}
              </button>
            </li>
          )
        })}
      </ul>
    </div>
  )
}
