import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from '@tanstack/react-router'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { FieldControl, FormField } from '@/components/ui/form-field'
import { Input } from '@/components/ui/input'
import { toast } from '@/components/ui/toast'
import { useDeleteCommunity } from '../api/delete-community'
import type { Community } from '../api/types'

/**
 * DeleteCommunityDialog is the inputConfirmation dialog (spec 000 §2.4):
 * the community goes only once its name is typed; another value shows the
 * invalid confirmation error.
 */
export function DeleteCommunityDialog({ community, open, onOpenChange }: { community: Pick<Community, 'id' | 'name'>; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const pathname = useLocation({ select: (l) => l.pathname })
  const del = useDeleteCommunity(community.id)
  const [value, setValue] = useState('')
  const [mismatch, setMismatch] = useState(false)
  const close = (o: boolean) => {
    if (!o) {
      setValue('')
      setMismatch(false)
    }
    onOpenChange(o)
  }
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (value.trim() !== community.name.trim()) return setMismatch(true)
    del.mutate(undefined, {
      onSuccess: () => {
        toast({ title: t('communities.remove.done', { name: community.name }), variant: 'success' })
        close(false)
        // From the community's own pages the user goes home; elsewhere (Manage Communities) they stay.
        if (pathname.startsWith(`/communities/${community.id}`)) void navigate({ to: '/home', replace: true })
      },
      onError: () => toast({ title: t('communities.remove.failed'), variant: 'destructive' }),
    })
  }
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent role="alertdialog" data-testid="delete-community-dialog">
        <DialogHeader>
          <DialogTitle>{t('communities.remove.title')}</DialogTitle>
          <DialogDescription>{t('communities.remove.body', { name: community.name })}</DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4">
          <FormField label={t('communities.remove.typeName', { name: community.name })} error={mismatch ? t('global:error.invalidConfirmation') : undefined}>
            <FieldControl>
              <Input
                name="confirmation"
                autoComplete="off"
                value={value}
                onChange={(e) => {
                  setValue(e.target.value)
                  setMismatch(false)
                }}
              />
            </FieldControl>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)}>
              {t('communities.remove.cancel')}
            </Button>
            <Button type="submit" variant="destructive" disabled={!value.trim() || del.isPending}>
              {del.isPending ? t('communities.remove.deleting') : t('communities.remove.confirm')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
