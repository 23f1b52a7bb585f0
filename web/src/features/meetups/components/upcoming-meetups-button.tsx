import { useTranslation } from 'react-i18next'
import { CalendarDays } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { Dialog, DialogContent, DialogTitle, DialogTrigger } from '@/components/ui/dialog'
import { EmptyState } from '@/components/ui/states'
import { useMediaQuery } from '@/hooks/use-media-query'

/**
 * UpcomingMeetupsButton opens the upcoming Meet Ups: a popover on larger
 * screens, a full-screen dialog on small ones (spec 000 §2.2). Meet Ups do
 * not exist yet, so the list is its empty state.
 */
export function UpcomingMeetupsButton({ hasNew = false }: { hasNew?: boolean }) {
  const { t } = useTranslation()
  const large = useMediaQuery('(min-width: 768px)')
  const trigger = (
    <Button variant="ghost" size="icon" className="relative" aria-label={t('nav.meetups')}>
      <CalendarDays aria-hidden />
      {hasNew && <span className="absolute right-2 top-2 size-2 rounded-full bg-destructive" />}
    </Button>
  )
  const body = <EmptyState icon={<CalendarDays />}>{t('meetups.empty')}</EmptyState>
  if (large) {
    return (
      <Popover>
        <PopoverTrigger asChild>{trigger}</PopoverTrigger>
        <PopoverContent align="end" className="w-80 p-0">
          <h2 className="border-b px-4 py-3 text-sm font-semibold">{t('meetups.title')}</h2>
          {body}
        </PopoverContent>
      </Popover>
    )
  }
  return (
    <Dialog>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent className="h-dvh max-w-none rounded-none">
        <DialogTitle>{t('meetups.title')}</DialogTitle>
        {body}
      </DialogContent>
    </Dialog>
  )
}
