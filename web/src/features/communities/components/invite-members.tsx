import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { FileSpreadsheet, UserPlus } from 'lucide-react'
import { MemberDialog } from '@/components/member-dialog'
import { MemberImportDialog } from '@/components/member-import-dialog'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { memberTags } from '@/lib/member-form'
import { addCommunityMember } from '../api/add-community-member'
import { useCommunityRoles } from '../api/get-community-roles'
import type { Community } from '../api/types'

type Mode = 'choose' | 'csv' | 'manual' | undefined

/** inviteModes are the invite options the user has (spec 000 §2.7, §5). */
export function inviteModes(p: Community['permissions']): ('csv' | 'manual')[] {
  return [...(p.canUploadMembers ? (['csv'] as const) : []), ...(p.canShare ? (['manual'] as const) : [])]
}

/** After an import or a manual invite the lists are read again from page 1, 200 ms later (spec 000 §4). */
function useReloadMembers(communityId: string) {
  const queryClient = useQueryClient()
  return () =>
    setTimeout(() => {
      queryClient.removeQueries({ queryKey: ['community', communityId, 'assignables'] })
      void queryClient.invalidateQueries({ queryKey: ['community', communityId] })
      void queryClient.invalidateQueries({ queryKey: ['communities'] })
    }, 200)
}

/**
 * InviteMembers opens the invite options the user has: the chooser between
 * CSV import and manual invite when both, else the one directly.
 */
export function InviteMembers({ community, open, onOpenChange }: { community: Community; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const modes = inviteModes(community.permissions)
  const reload = useReloadMembers(community.id)
  const [mode, setMode] = useState<Mode>()
  const shown: Mode = !open ? undefined : mode ?? (modes.length > 1 ? 'choose' : modes[0])
  const close = () => {
    setMode(undefined)
    onOpenChange(false)
  }
  return (
    <>
      <Dialog open={shown === 'choose'} onOpenChange={(o) => !o && close()}>
        <DialogContent data-testid="invite-chooser">
          <DialogHeader>
            <DialogTitle>{t('communities.invite.title')}</DialogTitle>
            <DialogDescription>{t('communities.invite.description', { name: community.name })}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-3 sm:grid-cols-2">
            <Button variant="outline" className="h-auto flex-col gap-2 py-5" onClick={() => setMode('csv')}>
              <FileSpreadsheet className="size-6!" aria-hidden />
              {t('communities.invite.csv')}
            </Button>
            <Button variant="outline" className="h-auto flex-col gap-2 py-5" onClick={() => setMode('manual')}>
              <UserPlus className="size-6!" aria-hidden />
              {t('communities.invite.manual')}
            </Button>
          </div>
        </DialogContent>
      </Dialog>
      <MemberImportDialog
        target={{ communityId: community.id }}
        name={community.name}
        open={shown === 'csv'}
        onOpenChange={(o) => !o && close()}
        onImported={reload}
      />
      <NewMemberDialog community={community} open={shown === 'manual'} onOpenChange={(o) => !o && close()} />
    </>
  )
}

/** NewMemberDialog adds one person to the community, with a role and tags, and mails them an invitation. */
export function NewMemberDialog({ community, open, onOpenChange }: { community: Community; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const roles = useCommunityRoles(community.id)
  const reload = useReloadMembers(community.id)
  return (
    <MemberDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('communities.invite.manualTitle')}
      description={t('communities.invite.manualDescription', { name: community.name })}
      roles={roles.data}
      onSubmit={async (v) => {
        await addCommunityMember(community.id, {
          firstName: v.firstName,
          lastName: v.lastName,
          email: v.email,
          roleId: v.roleId === 'admin' ? 'admin' : 'member',
          tags: memberTags(v.tags).join(','),
          sendInvitation: true,
        })
        toast({ title: t('communities.invite.invited', { email: v.email }), variant: 'success' })
        reload()
      }}
    />
  )
}
