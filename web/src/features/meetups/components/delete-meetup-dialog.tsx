import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'
import { toast } from '@/components/ui/toast'
import { useDeleteMeetup } from '../api/delete-meetup'

/** DeleteMeetupDialog asks the creator before deleting a Meet Up with its post; a failure shows feedPostMeetupDeleting (spec 001 §8). */
export function DeleteMeetupDialog({ meeting, open, onOpenChange }: { meeting: Parameters<typeof useDeleteMeetup>[0]; open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation()
  const remove = useDeleteMeetup(meeting)
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('meetups.banner.deleteTitle')}
      description={t('meetups.banner.deleteBody')}
      cancelLabel={t('meetups.form.cancel')}
      confirmLabel={t('meetups.banner.delete')}
      pending={remove.isPending}
      onConfirm={() =>
        remove.mutate(undefined, {
          onSettled: () => onOpenChange(false),
          onError: () => toast({ title: t('global:error.feedPostMeetupDeleting'), variant: 'destructive' }),
        })
      }
    />
  )
}
