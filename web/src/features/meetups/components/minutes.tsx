import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Pencil, Sparkles, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Textarea } from '@/components/ui/textarea'
import { deleteMinutes } from '../api/delete-minutes'
import { editMinutes } from '../api/edit-minutes'
import { meetingKeys } from '../api/keys'
import { useMeetingAction } from '../hooks/use-meeting-action'
import { setPostMeeting, storeMeeting } from '../lib/meeting-cache'
import type { Meeting } from '../api/types'

/** MINUTES_MAX: the most characters the AI notes may hold (contract 18). */
const MINUTES_MAX = 20000

/**
 * Minutes are an ended Meet Up's AI notes (spec 001 §4 "Minutes"), shown to
 * those the API gives them to (invitees); the creator and moderators edit
 * them in a dialog or delete them after a confirmation. Save and delete
 * failures are only logged (spec 001 §8).
 */
export function Minutes({ meeting: m, canEdit }: { meeting: Meeting; canEdit: boolean }) {
  const { t } = useTranslation()
  const qc = useQueryClient()
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [text, setText] = useState('')
  const save = useMeetingAction((content: string) => editMinutes(m.postId, content), { silent: true })
  const remove = useMutation({
    mutationFn: () => deleteMinutes(m.postId),
    meta: { silent: true },
    onSuccess: () => {
      const cleared = { ...m, minutes: { state: null, content: null, updatedOn: new Date().toISOString() }, updatedOn: new Date().toISOString() }
      storeMeeting(qc, cleared)
      setPostMeeting(qc, m.postId, () => cleared)
      void qc.invalidateQueries({ queryKey: meetingKeys.one(m.roomId), exact: true })
    },
    onError: (e) => console.warn('minutes not deleted', e),
  })
  if (m.minutes.state === 'compiling' || m.minutes.state === 'started') return <p className="text-sm text-muted-foreground">{t('meetups.minutes.compiling')}</p>
  if (m.minutes.state === 'failed') return <p className="text-sm text-muted-foreground">{t('meetups.minutes.failed')}</p>
  if (!m.minutes.content) return null
  return (
    <div className="grid gap-2 rounded-md border bg-background p-3" data-testid="minutes">
      <div className="flex items-center gap-2">
        <Sparkles aria-hidden className="size-4 text-primary" />
        <h4 className="flex-1 text-sm font-semibold">{t('meetups.minutes.title')}</h4>
        {canEdit && (
          <>
            <Button
              type="button"
              size="icon"
              variant="ghost"
              aria-label={t('meetups.minutes.edit')}
              onClick={() => {
                setText(m.minutes.content ?? '')
                setEditing(true)
              }}
            >
              <Pencil aria-hidden />
            </Button>
            <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.minutes.delete')} onClick={() => setDeleting(true)}>
              <Trash2 aria-hidden />
            </Button>
          </>
        )}
      </div>
      <p className="whitespace-pre-wrap text-sm" data-testid="minutes-content">
        {m.minutes.content}
      </p>
      <Dialog open={editing} onOpenChange={setEditing}>
        <DialogContent className="sm:max-w-2xl">
          <DialogHeader>
            <DialogTitle>{t('meetups.minutes.editTitle')}</DialogTitle>
            <DialogDescription className="sr-only">{t('meetups.minutes.editTitle')}</DialogDescription>
          </DialogHeader>
          <Textarea aria-label={t('meetups.minutes.content')} value={text} onChange={(e) => setText(e.target.value)} maxLength={MINUTES_MAX} rows={12} />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setEditing(false)}>
              {t('meetups.minutes.cancel')}
            </Button>
            <Button
              type="button"
              disabled={save.isPending}
              onClick={() => save.mutate(text, { onSuccess: () => setEditing(false), onError: (e) => console.warn('minutes not saved', e) })}
            >
              {t('meetups.minutes.save')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={t('meetups.minutes.deleteTitle')}
        description={t('meetups.minutes.deleteBody')}
        cancelLabel={t('meetups.minutes.cancel')}
        confirmLabel={t('meetups.minutes.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setDeleting(false) })}
      />
    </div>
  )
}
