import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { invite } from '../api/invite-to-meetup'
import { useMeetingAction } from '../hooks/use-meeting-action'
import type { Meeting } from '../api/types'
import type { Invitee } from '../lib/form'
import { InviteePicker } from './invitee-picker'

/**
 * AddMembersDialog invites more members to a private Meet Up (spec 002 §5):
 * candidates leave out the creator and those already invited; Add is
 * disabled, and nothing sent, while none is picked.
 */
export function AddMembersDialog({ open, onOpenChange, meeting: m }: { open: boolean; onOpenChange: (o: boolean) => void; meeting: Meeting }) {
  const { t } = useTranslation()
  const [picked, setPicked] = useState<Invitee[]>([])
  const add = useMeetingAction((body: Record<string, 'member' | 'moderator'>) => invite(m.roomId, body))
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('meetups.addMembers.title')}</DialogTitle>
          <DialogDescription>{t('meetups.addMembers.description')}</DialogDescription>
        </DialogHeader>
        <InviteePicker
          seriesId={m.seriesId}
          creatorId={m.creatorId}
          exclude={Object.keys(m.invitees)}
          value={picked}
          onChange={setPicked}
          label={t('meetups.form.inviteesSearch')}
        />
        <DialogFooter>
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            {t('meetups.form.cancel')}
          </Button>
          <Button
            type="button"
            disabled={picked.length === 0 || add.isPending}
            onClick={() => add.mutate(Object.fromEntries(picked.map((p) => [p.userId, p.role])), { onSuccess: () => onOpenChange(false) })}
          >
            {t('meetups.addMembers.submit')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
