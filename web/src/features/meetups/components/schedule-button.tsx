import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CalendarPlus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { MeetupFormDialog } from './meetup-form-dialog'

/**
 * ScheduleMeetupButton is the composer row's Schedule Meet Up button (spec
 * 001 §2) for a forum's members; its admins (canDoOpenMeetups) may also
 * make the Meet Up open.
 */
export function ScheduleMeetupButton({ series, className }: { series: { id: string; name: string; role: 'admin' | 'member' }; className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button type="button" variant="outline" className={cn(className)} onClick={() => setOpen(true)}>
        <CalendarPlus aria-hidden />
        {t('meetups.schedule')}
      </Button>
      <MeetupFormDialog open={open} onOpenChange={setOpen} series={series} canOpen={series.role === 'admin'} />
    </>
  )
}
