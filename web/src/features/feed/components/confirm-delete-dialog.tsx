import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '@/components/ui/confirm-dialog'

export { ConfirmDialog }

/** ConfirmDeleteDialog asks before a post or comment is deleted. */
export function ConfirmDeleteDialog({
  open,
  onOpenChange,
  title,
  pending,
  onConfirm,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  title: string
  pending: boolean
  onConfirm: () => void
}) {
  const { t } = useTranslation()
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={t('feed.deleteBody')}
      cancelLabel={t('feed.cancel')}
      confirmLabel={pending ? t('feed.deleting') : t('feed.delete')}
      pending={pending}
      onConfirm={onConfirm}
    />
  )
}
