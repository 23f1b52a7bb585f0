import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MoreHorizontal, Pencil, Share2, Trash2, UserPlus } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import type { Community } from '../api/types'
import { CommunityFormDialog } from './community-form-dialog'
import { DeleteCommunityDialog } from './delete-community-dialog'
import { InviteMembers, inviteModes } from './invite-members'
import { ShareDialog } from './share-dialog'

type Open = 'edit' | 'delete' | 'share' | 'invite' | undefined

/**
 * CommunityAdminMenu is a community's admin menu (Edit, Delete, Share,
 * Invite) and its dialogs, for those who manage it; nobody else sees it.
 */
export function CommunityAdminMenu({ community, className }: { community: Community; className?: string }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState<Open>()
  const p = community.permissions
  if (!p?.canManage) return null
  const set = (k: Open) => (o: boolean) => setOpen(o ? k : undefined)
  const canInvite = inviteModes(p).length > 0
  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" className={className} aria-label={t('communities.admin.menu', { name: community.name })} data-testid="community-admin-menu">
            <MoreHorizontal aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setOpen('edit')}>
            <Pencil aria-hidden />
            {t('communities.admin.edit')}
          </DropdownMenuItem>
          {p.canShare && (
            <DropdownMenuItem onSelect={() => setOpen('share')}>
              <Share2 aria-hidden />
              {t('communities.admin.share')}
            </DropdownMenuItem>
          )}
          {canInvite && (
            <DropdownMenuItem onSelect={() => setOpen('invite')}>
              <UserPlus aria-hidden />
              {t('communities.admin.invite')}
            </DropdownMenuItem>
          )}
          <DropdownMenuSeparator />
          <DropdownMenuItem onSelect={() => setOpen('delete')} className="text-destructive focus:text-destructive">
            <Trash2 aria-hidden />
            {t('communities.admin.delete')}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <CommunityFormDialog target={{ community }} open={open === 'edit'} onOpenChange={set('edit')} />
      <DeleteCommunityDialog community={community} open={open === 'delete'} onOpenChange={set('delete')} />
      {p.canShare && <ShareDialog community={community} open={open === 'share'} onOpenChange={set('share')} />}
      {canInvite && <InviteMembers community={community} open={open === 'invite'} onOpenChange={set('invite')} />}
    </>
  )
}
