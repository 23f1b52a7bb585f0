import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQueryClient } from '@tanstack/react-query'
import { Download, FileSpreadsheet, TriangleAlert, UserPlus } from 'lucide-react'
import { isApiError } from '@/api/client'
import { MemberDialog } from '@/components/member-dialog'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { memberTags } from '@/lib/member-form'
import { addCommunityMember } from '../api/add-community-member'
import { useCommunityRoles } from '../api/get-community-roles'
import { downloadImportTemplate, importCommunityMembers } from '../api/import-community-members'
import type { Community, ImportProgress, ImportReport } from '../api/types'
import { progressPercent } from '../lib/import-stream'

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
      <CsvImportDialog community={community} open={shown === 'csv'} onOpenChange={(o) => !o && close()} />
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

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * CsvImportDialog imports members from a .csv or .xlsx file: a template to
 * start from, one file, Save once it is chosen, the progress as the server
 * reports it, then what was added, already there and skipped. A file the
 * server refuses shows a warning.
 */
export function CsvImportDialog({ community, open, onOpenChange }: { community: Pick<Community, 'id' | 'name'>; open: boolean; onOpenChange: (o: boolean) => void }) {
  const { t } = useTranslation()
  const [file, setFile] = useState<File>()
  const [progress, setProgress] = useState<ImportProgress>()
  const [running, setRunning] = useState(false)
  const [report, setReport] = useState<ImportReport>()
  const [warning, setWarning] = useState<string>()
  const abort = useRef<AbortController>(undefined)
  const reload = useReloadMembers(community.id)
  useEffect(() => () => abort.current?.abort(), [])

  const reset = () => {
    abort.current?.abort()
    setFile(undefined)
    setProgress(undefined)
    setRunning(false)
    setReport(undefined)
    setWarning(undefined)
  }
  const close = (o: boolean) => {
    if (!o) reset()
    onOpenChange(o)
  }
  const save = async () => {
    if (!file) return
    const ctl = new AbortController()
    abort.current = ctl
    setRunning(true)
    setWarning(undefined)
    try {
      const r = await importCommunityMembers(community.id, file, setProgress, ctl.signal)
      setReport(r)
      reload()
    } catch (err) {
      if (ctl.signal.aborted) return
      setWarning(isApiError(err) && err.status < 500 ? err.message : t('global:error.membersImporting'))
    } finally {
      setRunning(false)
    }
  }
  const pct = progress ? progressPercent(progress) : 0

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" data-testid="csv-import-dialog">
        <DialogHeader>
          <DialogTitle>{t('communities.import.title')}</DialogTitle>
          <DialogDescription>{t('communities.import.description', { name: community.name })}</DialogDescription>
        </DialogHeader>
        {report ? (
          <div className="grid gap-3" data-testid="import-report" role="status">
            <p className="font-medium">{t('communities.import.doneTitle')}</p>
            <ul className="grid gap-1 text-sm">
              <li>{t('communities.import.added', { count: report.added })}</li>
              <li>{t('communities.import.existing', { count: report.existing })}</li>
              <li>{t('communities.import.skipped', { count: report.skipped.length })}</li>
            </ul>
            {report.skipped.length > 0 && (
              <ul className="max-h-48 overflow-y-auto rounded-md border text-xs" aria-label={t('communities.import.skippedRows')}>
                {report.skipped.map((s) => (
                  <li key={`${s.row}-${s.email}`} className="border-b px-3 py-1.5 last:border-0">
                    {t('communities.import.skippedRow', { row: s.row, email: s.email || '—', message: s.message || s.reason })}
                  </li>
                ))}
              </ul>
            )}
            <DialogFooter>
              <Button onClick={() => close(false)}>{t('communities.import.close')}</Button>
            </DialogFooter>
          </div>
        ) : (
          <div className="grid gap-4">
            <p className="text-sm text-muted-foreground">{t('communities.import.columns')}</p>
            <Button variant="link" className="justify-self-start px-0" onClick={() => void downloadImportTemplate().catch(() => toast({ title: t('communities.import.templateFailed'), variant: 'destructive' }))}>
              <Download aria-hidden />
              {t('communities.import.template')}
            </Button>
            <label className="grid gap-1.5 text-sm font-medium">
              {t('communities.import.file')}
              <input
                type="file"
                accept={ACCEPT}
                disabled={running}
                data-testid="csv-file-input"
                className="text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-sm"
                onChange={(e) => {
                  setFile(e.target.files?.[0])
                  setWarning(undefined)
                }}
              />
            </label>
            {running && (
              <div className="grid gap-1" data-testid="import-progress">
                <div
                  className="h-2 overflow-hidden rounded-full bg-muted"
                  role="progressbar"
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={pct}
                  aria-label={t('communities.import.progress')}
                >
                  <div className="h-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
                </div>
                <p className="text-xs text-muted-foreground">
                  {progress ? t('communities.import.processed', { processed: progress.processed, total: progress.total }) : t('communities.import.uploading')}
                </p>
              </div>
            )}
            {warning && (
              <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
                <TriangleAlert className="size-4 shrink-0 text-destructive" aria-hidden />
                <div>
                  <p className="font-medium">{t('communities.import.failedTitle')}</p>
                  <p className="text-muted-foreground">{warning}</p>
                </div>
              </div>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {t('communities.import.cancel')}
              </Button>
              <Button onClick={() => void save()} disabled={!file || running}>
                {running ? t('communities.import.saving') : t('communities.import.save')}
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  )
}
