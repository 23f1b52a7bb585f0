import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from '@tanstack/react-router'
import { Plus, Users } from 'lucide-react'
import { AvatarGroup } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Skeleton } from '@/components/ui/skeleton'
import { EmptyState, ErrorFallback } from '@/components/ui/states'
import { useHighlightedMembers } from '../api/get-highlighted-members'
import { useManageableCommunities } from '../api/list-manageable-communities'
import { useOrganizationPermissions } from '../api/get-organization-permissions'
import type { NamedRef } from '../api/types'
import { CommunityAdminMenu } from './community-admin-menu'
import { CommunityFormDialog } from './community-form-dialog'
import { CommunityCover } from './community-media'
import { SelectOrganizationDialog } from './select-organization-dialog'

/**
 * ManageCommunitiesDialog lists the communities the user may manage (spec
 * 000 §2.4): image, video, name, members, Open and the admin menu; and Add
 * community for those who may add one (with the organization picker when
 * they may add to more than one).
 */
export function ManageCommunitiesDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const list = useManageableCommunities(undefined, open)
  const permissions = useOrganizationPermissions()
  const communities = (list.data?.results ?? []).filter((c) => c.permissions?.canManage)
  const highlighted = useHighlightedMembers(communities.map((c) => c.id))
  const addable = permissions.data?.whichOnesCanIAddCommunitiesTo ?? []
  const [picking, setPicking] = useState(false)
  const [creatingIn, setCreatingIn] = useState<NamedRef>()
  const add = () => (addable.length > 1 ? setPicking(true) : setCreatingIn(addable[0]))

  return (
    <>
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="flex max-h-[90dvh] max-w-2xl flex-col" data-testid="manage-communities-dialog">
          <DialogHeader>
            <DialogTitle>{t('communities.manage.title')}</DialogTitle>
            <DialogDescription>{t('communities.manage.description')}</DialogDescription>
          </DialogHeader>
          {addable.length > 0 && (
            <Button className="justify-self-start" onClick={add}>
              <Plus aria-hidden />
              {t('communities.manage.add')}
            </Button>
          )}
          <div className="-mx-2 min-h-24 overflow-y-auto px-2">
            {list.isPending ? (
              <div className="grid gap-2" aria-busy="true">
                {[0, 1, 2].map((i) => (
                  <Skeleton key={i} className="h-16" />
                ))}
              </div>
            ) : list.isError ? (
              <ErrorFallback onRetry={() => void list.refetch()} />
            ) : communities.length === 0 ? (
              <EmptyState icon={<Users />}>{t('communities.manage.empty')}</EmptyState>
            ) : (
              <ul className="divide-y" data-testid="manage-communities-list">
                {communities.map((c) => {
                  const h = highlighted.data?.[c.id]
                  return (
                    <li key={c.id} className="flex items-center gap-3 py-3" data-testid="manage-community-row">
                      <CommunityCover community={c} className="size-14 rounded-lg" />
                      <div className="min-w-0 flex-1">
                        <p className="truncate font-medium">{c.name}</p>
                        <p className="truncate text-xs text-muted-foreground">{c.organization?.name}</p>
                        {h && h.total > 0 && <AvatarGroup people={h.highlightedMembers} total={h.total} className="mt-1" />}
                      </div>
                      <Button asChild variant="outline" size="sm">
                        <Link to="/communities/$communityId" params={{ communityId: c.id }} onClick={() => onOpenChange(false)} aria-label={`${t('communities.manage.open')} ${c.name}`}>
                          {t('communities.manage.open')}
                        </Link>
                      </Button>
                      <CommunityAdminMenu community={c} />
                    </li>
                  )
                })}
              </ul>
            )}
          </div>
        </DialogContent>
      </Dialog>
      <SelectOrganizationDialog organizations={addable} open={picking} onOpenChange={setPicking} onSelect={setCreatingIn} />
      {creatingIn && (
        <CommunityFormDialog
          target={{ organization: creatingIn }}
          open
          onCreated={() => onOpenChange(false)}
          onOpenChange={(o) => {
            if (!o) setCreatingIn(undefined)
          }}
        />
      )}
    </>
  )
}
