import { useTranslation } from 'react-i18next'
import { useNavigate } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import type { Forum } from '../api/get-forum'
import { useDeleteForum } from '../api/delete-forum'

/** DeleteForumDialog asks before a forum admin deletes the forum, then goes home. */
export function DeleteForumDialog({ forum, open, onOpenChange }: { forum: Forum; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const del = useDeleteForum(forum.id)
  const onDelete = () =>
    del.mutate(undefined, {
      onSuccess: () => {
        toast({ title: t('forum.remove.done'), variant: 'success' })
        onOpenChange(false)
        void navigate({ to: '/home', replace: true })
      },
      onError: () => toast({ title: t('forum.remove.failed'), variant: 'destructive' }),
    })
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent role="alertdialog">
        <DialogHeader>
          <DialogTitle>{t('forum.remove.title')}</DialogTitle>
          <DialogDescription>{t('forum.remove.body', { name: forum.name })}</DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            {t('forum.remove.cancel')}
          </Button>
          <Button variant="destructive" onClick={onDelete} disabled={del.isPending}>
            {del.isPending ? t('forum.remove.deleting') : t('forum.remove.confirm')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
