import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Radio, Video } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { Meeting } from '../api/types'
import { canJoinYet, GRACE_MINUTES, timeFrame } from '../lib/time'
import { useMeetupRoom } from '../room/context'

/**
 * JoinButton joins a Meet Up (spec 001 §4 "Meet Up join from the forum",
 * spec 002 §4): 'in progress' when it is the member's current room; a
 * dialog when another Meet Up is on, or before the grace window opens
 * (with the start and the 10 grace minutes).
 */
export function JoinButton({ meeting, size = 'sm' }: { meeting: Meeting; size?: 'sm' | 'default' }) {
  const { t } = useTranslation()
  const room = useMeetupRoom()
  const [dialog, setDialog] = useState<'notYet' | 'busy' | null>(null)
  if (room.active?.meeting.roomId === meeting.roomId)
    return (
      <Badge variant="secondary" className="gap-1" data-testid="in-progress">
        <Radio aria-hidden className="size-3" />
        {t('meetups.banner.inProgress')}
      </Badge>
    )
  const join = () => {
    if (room.active) return setDialog('busy')
    if (!canJoinYet(meeting)) return setDialog('notYet')
    void room.join(meeting)
  }
  return (
    <>
      <Button type="button" size={size} onClick={join}>
        <Video aria-hidden />
        {t('meetups.banner.join')}
      </Button>
      <Dialog open={!!dialog} onOpenChange={(o) => !o && setDialog(null)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t(dialog === 'busy' ? 'meetups.busy.title' : 'meetups.notYet.title')}</DialogTitle>
            <DialogDescription>
              {dialog === 'busy' ? t('meetups.busy.body') : t('meetups.notYet.body', { start: timeFrame(meeting).start, grace: GRACE_MINUTES })}
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button type="button" onClick={() => setDialog(null)}>
              {t('meetups.ok')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  )
}
