import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MessageCircle } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { idList, usePersonalization, useUpdatePersonalization, type Personalization } from '@/lib/personalization'
import type { PrivateChannel } from '../api/types'
import { DISMISSED_KEY } from '../lib/chat-cache'
import { useUnreadChats } from './chat-panel'

/** The bubble fades in and out in 350 ms (spec 002 §9). */
export const FADE_MS = 350

// Dismiss stores the unread latest messages' ids in place of the list, so
// the list never holds more than the member's unread channels.

/** bubbleMessages are the ids of the unread latest messages not dismissed. */
export function bubbleMessages(unread: PrivateChannel[], personalization: Personalization | undefined): string[] {
  const dismissed = new Set(idList(personalization, DISMISSED_KEY))
  return unread.flatMap((c) => (c.latestThread && !dismissed.has(c.latestThread.id) ? [c.latestThread.id] : []))
}

/**
 * NewMessageBubble is the new-message reminder (spec 002 §4): shown while
 * unread latest messages are not dismissed and the panel is closed. Dismiss
 * stores their ids in the member's personalization; View opens the chat.
 */
export function NewMessageBubble({ panelOpen, onView }: { panelOpen: boolean; onView: () => void }) {
  const { t } = useTranslation()
  const me = useCurrentUser()
  const userId = me?.user.id ?? ''
  const { unread } = useUnreadChats()
  const personalization = usePersonalization()
  const dismiss = useUpdatePersonalization(userId)
  const ids = personalization.isSuccess ? bubbleMessages(unread, personalization.data) : []
  const show = !panelOpen && ids.length > 0
  // Kept mounted for the fade out, then gone.
  const [mounted, setMounted] = useState(show)
  const [visible, setVisible] = useState(false)
  useEffect(() => {
    if (show) {
      setMounted(true)
      const f = requestAnimationFrame(() => setVisible(true))
      return () => cancelAnimationFrame(f)
    }
    setVisible(false)
    const timer = setTimeout(() => setMounted(false), FADE_MS)
    return () => clearTimeout(timer)
  }, [show])
  if (!mounted && !show) return null
  return (
    <div
      role="status"
      data-testid="new-message-bubble"
      style={{ transitionDuration: `${FADE_MS}ms` }}
      className={cn('fixed bottom-4 right-4 z-40 flex items-center gap-3 rounded-lg border bg-background p-3 shadow-lg transition-opacity', visible && show ? 'opacity-100' : 'opacity-0')}
    >
      <MessageCircle aria-hidden className="size-5 text-primary" />
      <span className="text-sm">{t('chat.bubble', { count: unread.filter((c) => c.latestThread && ids.includes(c.latestThread.id)).length })}</span>
      <Button size="sm" variant="ghost" disabled={dismiss.isPending} onClick={() => dismiss.mutate({ [DISMISSED_KEY]: unread.flatMap((c) => (c.latestThread ? [c.latestThread.id] : [])) })}>
        {t('chat.dismiss')}
      </Button>
      <Button size="sm" onClick={onView}>
        {t('chat.view')}
      </Button>
    </div>
  )
}
