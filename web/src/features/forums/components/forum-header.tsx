import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { MoreHorizontal, Pencil, Share2, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import type { Forum } from '../api/get-forum'
import { DeleteForumDialog } from './delete-forum-dialog'
import { EditForumDialog } from './edit-forum-dialog'
import { ManageAccessDialog } from './manage-access/manage-access-dialog'
import { MembersStrip } from './members-strip'

/**
 * ForumHeader: the forum's name and description, the highlighted members,
 * and for forum admins the Manage Access button (hidden on narrow screens,
 * spec 001 §2) and the edit and delete actions.
 */
export function ForumHeader({ forum }: { forum: Forum }) {
  const { t } = useTranslation()
  const admin = forum.role === 'admin'
  const [dialog, setDialog] = useState<'access' | 'edit' | 'delete' | null>(null)
  const openChange = (d: typeof dialog) => (o: boolean) => setDialog(o ? d : null)
  return (
    <header className="mb-6 grid gap-4 rounded-xl border bg-card p-5 text-card-foreground" data-testid="forum-header">
      <div className="flex items-start gap-4">
        {forum.image ? (
          <img src={forum.image} alt="" className="size-14 shrink-0 rounded-lg object-cover" />
        ) : (
          <div aria-hidden className="flex size-14 shrink-0 items-center justify-center rounded-lg bg-primary text-xl font-semibold text-primary-foreground">
            {forum.name.slice(0, 1).toUpperCase()}
          </div>
        )}
        <div className="min-w-0 flex-1">
          <h1 className="break-words text-2xl font-semibold tracking-tight">{forum.name}</h1>
          <p className="mt-1 whitespace-pre-line break-words text-sm text-muted-foreground">{forum.description}</p>
        </div>
        {admin && (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="icon" aria-label={t('forum.settings')} data-testid="forum-settings">
                <MoreHorizontal />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuItem onSelect={() => setDialog('edit')}>
                <Pencil aria-hidden />
                {t('forum.edit')}
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => setDialog('delete')} className="text-destructive focus:text-destructive">
                <Trash2 aria-hidden />
                {t('forum.delete')}
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <MembersStrip seriesId={forum.id} canInvite={admin} />
        {admin && (
          <Button variant="outline" className="hidden md:inline-flex" onClick={() => setDialog('access')} data-testid="manage-access">
            <Share2 aria-hidden />
            {t('forum.access.button')}
          </Button>
        )}
      </div>
      {admin && (
        <>
          <ManageAccessDialog forum={forum} open={dialog === 'access'} onOpenChange={openChange('access')} />
          <EditForumDialog forum={forum} open={dialog === 'edit'} onOpenChange={openChange('edit')} />
          <DeleteForumDialog forum={forum} open={dialog === 'delete'} onOpenChange={openChange('delete')} />
        </>
      )}
    </header>
  )
}
