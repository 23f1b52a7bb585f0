import { useTranslation } from 'react-i18next'
import { Bell } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { EmptyState } from '@/components/ui/states'

/**
 * NotificationsBell opens the notifications list. There is no notifications
 * API yet, so the list is its empty state and the unread dot never shows;
 * `unread` is where the count will plug in.
 */
export function NotificationsBell({ unread = 0 }: { unread?: number }) {
  const { t } = useTranslation()
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={unread ? `${t('nav.notifications')} (${unread} ${t('nav.unread')})` : t('nav.notifications')}>
          <Bell aria-hidden />
          {unread > 0 && <span className="absolute right-2 top-2 size-2 rounded-full bg-destructive" data-testid="unread-dot" />}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="end" className="w-80 p-0">
        <h2 className="border-b px-4 py-3 text-sm font-semibold">{t('notifications.title')}</h2>
        <EmptyState icon={<Bell />}>{t('notifications.empty')}</EmptyState>
      </PopoverContent>
    </Popover>
  )
}
