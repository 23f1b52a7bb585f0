import { useTranslation } from 'react-i18next'
import { cn } from '@/lib/utils'
import type { Peer } from '../api/types'

const COLOR: Record<Peer['status'], string> = {
  online: 'bg-green-500',
  away: 'bg-amber-400',
  'do-not-disturb': 'bg-red-500',
  offline: '',
}

/** PresenceDot is a peer's presence on their avatar (spec 002 §4): online green, away, do-not-disturb; offline shows none. */
export function PresenceDot({ status, className }: { status: Peer['status']; className?: string }) {
  const { t } = useTranslation()
  if (status === 'offline') return null
  return (
    <span
      role="img"
      aria-label={t(`chat.status.${status}`)}
      data-status={status}
      className={cn('absolute bottom-0 right-0 size-3 rounded-full ring-2 ring-background', COLOR[status], className)}
    />
  )
}

/** UnreadDot marks a conversation with a message not seen. */
export function UnreadDot({ className }: { className?: string }) {
  const { t } = useTranslation()
  return <span role="img" aria-label={t('chat.unread')} data-testid="unread-dot" className={cn('size-2.5 shrink-0 rounded-full bg-red-500', className)} />
}
