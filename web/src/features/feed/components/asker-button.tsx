import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Eye } from 'lucide-react'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { useLookAtAsker } from '../api/get-asker'

/**
 * AskerButton lets a forum admin see who asked an anonymous question. The
 * server records each look, so the button says so before it is pressed and
 * asks once more before the name is shown: a look cannot be taken back.
 */
export function AskerButton({ threadId }: { threadId: string }) {
  const { t } = useTranslation()
  const noteId = useId()
  const look = useLookAtAsker(threadId)
  const [asking, setAsking] = useState(false)
  if (look.data) {
    const a = look.data
    const name = `${a.firstName} ${a.lastName}`.trim()
    return (
      <div className="flex items-center gap-2 rounded-md border border-dashed p-2 text-sm" data-testid="asker">
        <PersonAvatar person={{ id: a.userId, firstName: a.firstName, lastName: a.lastName, avatar: a.avatar }} className="size-7" />
        <div className="min-w-0">
          <p className="font-medium">{t('feed.askedBy', { name })}</p>
          <p className="text-xs text-muted-foreground">{t('feed.askerNote')}</p>
        </div>
      </div>
    )
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button variant="outline" size="sm" onClick={() => setAsking(true)} disabled={look.isPending} aria-describedby={noteId}>
        <Eye aria-hidden />
        {t('feed.seeWhoAsked')}
      </Button>
      <ConfirmDialog
        open={asking}
        onOpenChange={setAsking}
        title={t('feed.askerConfirmTitle')}
        description={t('feed.askerConfirmBody')}
        cancelLabel={t('feed.askerConfirmCancel')}
        confirmLabel={t('feed.seeWhoAsked')}
        destructive={false}
        pending={look.isPending}
        onConfirm={() => {
          setAsking(false)
          look.mutate()
        }}
      />
      <span id={noteId} className="text-xs text-muted-foreground" data-testid="asker-look-note">
        {t('feed.askerLookNote')}
      </span>
      {look.isError && (
        <span role="alert" className="text-xs text-destructive">
          {t('feed.askerFailed')}
        </span>
      )}
    </div>
  )
}
