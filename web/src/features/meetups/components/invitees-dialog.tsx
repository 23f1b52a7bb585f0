import { useTranslation } from 'react-i18next'
import { PersonAvatar } from '@/components/ui/avatar'
import { Badge } from '@/components/ui/badge'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { personName, useForumPeople } from '../api/get-forum-people'
import type { Meeting } from '../api/types'

/** InviteesDialog lists a Meet Up's host and invitees with their answers and roles (spec 002 §2 "invitee list"). */
export function InviteesDialog({ open, onOpenChange, meeting: m }: { open: boolean; onOpenChange: (o: boolean) => void; meeting: Meeting }) {
  const { t } = useTranslation()
  const people = useForumPeople(m.seriesId, open)
  const person = (userId: string) => people.data?.results.find((p) => p.userId === userId)
  const rows = [m.creatorId, ...Object.keys(m.invitees).filter((id) => id !== m.creatorId)]
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('meetups.banner.inviteesTitle', { name: m.name })}</DialogTitle>
          <DialogDescription>{t('meetups.banner.inviteesDescription')}</DialogDescription>
        </DialogHeader>
        <ul className="grid max-h-96 gap-2 overflow-y-auto" data-testid="invitee-list">
          {rows.map((id) => {
            const p = person(id)
            const name = p ? personName(p) : '…'
            const r = m.invitees[id]
            return (
              <li key={id} className="flex items-center gap-2 text-sm" data-testid="invitee">
                <PersonAvatar person={p ?? { id, firstName: '', lastName: '' }} className="size-8" />
                <span className="min-w-0 flex-1 truncate">{name}</span>
                {id === m.creatorId ? (
                  <Badge>{t('meetups.banner.host')}</Badge>
                ) : (
                  <>
                    {m.roles[id] === 'moderator' && <Badge variant="secondary">{t('meetups.form.moderator')}</Badge>}
                    <span className="text-xs text-muted-foreground">{t(`meetups.banner.response.${r ?? 'none'}`)}</span>
                  </>
                )}
              </li>
            )
          })}
        </ul>
      </DialogContent>
    </Dialog>
  )
}
