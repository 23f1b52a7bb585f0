import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import type { NamedRef } from '../api/types'

/** SelectOrganizationDialog picks the organization a new community goes in; Select is enabled once one is chosen. */
export function SelectOrganizationDialog({
  organizations,
  open,
  onOpenChange,
  onSelect,
}: {
  organizations: NamedRef[]
  open: boolean
  onOpenChange: (o: boolean) => void
  onSelect: (o: NamedRef) => void
}) {
  const { t } = useTranslation()
  const [chosen, setChosen] = useState<string>()
  const close = (o: boolean) => {
    if (!o) setChosen(undefined)
    onOpenChange(o)
  }
  const org = organizations.find((o) => o.id === chosen)
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent data-testid="select-organization-dialog">
        <DialogHeader>
          <DialogTitle>{t('communities.selectOrganization.title')}</DialogTitle>
          <DialogDescription>{t('communities.selectOrganization.description')}</DialogDescription>
        </DialogHeader>
        <fieldset className="grid max-h-80 gap-2 overflow-y-auto">
          <legend className="sr-only">{t('communities.selectOrganization.title')}</legend>
          {organizations.map((o) => (
            <label key={o.id} className="flex items-center gap-3 rounded-md border p-3 text-sm has-[:checked]:border-primary">
              <input type="radio" name="organization" value={o.id} checked={chosen === o.id} onChange={() => setChosen(o.id)} className="size-4 accent-primary" />
              {o.name}
            </label>
          ))}
        </fieldset>
        <DialogFooter>
          <Button variant="outline" onClick={() => close(false)}>
            {t('communities.selectOrganization.cancel')}
          </Button>
          <Button
            disabled={!org}
            onClick={() => {
              if (!org) return
              close(false)
              onSelect(org)
            }}
          >
            {t('communities.selectOrganization.select')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
