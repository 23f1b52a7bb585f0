import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Download, TriangleAlert } from 'lucide-react'
import { isApiError } from '@/api/client'
import { downloadImportTemplate, importMembers, inviteImported, type ImportTarget } from '@/api/member-import'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { toast } from '@/components/ui/toast'
import { progressPercent, type ImportProgress, type ImportReport } from '@/lib/import-stream'

const ACCEPT = '.csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * MemberImportDialog imports people from a .csv or .xlsx file into a
 * community or an organization (target): a template to start from, one
 * file, Save once it is chosen, the progress as the server reports it,
 * then what was added, already there and skipped. An import mails
 * nobody: the report says so of the people added without an account and
 * offers one action that invites them all. A file the server refuses
 * shows a warning. onImported follows a finished import, and the
 * invitations sent.
 */
export function MemberImportDialog({
  target,
  name,
  open,
  onOpenChange,
  onImported,
}: {
  target: ImportTarget
  /** The community's or organization's name. */
  name: string
  open: boolean
  onOpenChange: (o: boolean) => void
  onImported?: () => void
}) {
  const { t } = useTranslation()
  const [file, setFile] = useState<File>()
  const [progress, setProgress] = useState<ImportProgress>()
  const [running, setRunning] = useState(false)
  const [report, setReport] = useState<ImportReport>()
  const [warning, setWarning] = useState<string>()
  const [inviting, setInviting] = useState(false)
  const [invited, setInvited] = useState<number>()
  const abort = useRef<AbortController>(undefined)
  useEffect(() => () => abort.current?.abort(), [])

  const reset = () => {
    abort.current?.abort()
    setFile(undefined)
    setProgress(undefined)
    setRunning(false)
    setReport(undefined)
    setWarning(undefined)
    setInviting(false)
    setInvited(undefined)
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
      const r = await importMembers(target, file, setProgress, ctl.signal)
      setReport(r)
      onImported?.()
    } catch (err) {
      if (ctl.signal.aborted) return
      setWarning(isApiError(err) && err.status < 500 ? err.message : t('global:error.membersImporting'))
    } finally {
      setRunning(false)
    }
  }
  const invite = async () => {
    if (!report) return
    setInviting(true)
    try {
      setInvited(await inviteImported(target, report.toInvite))
      onImported?.()
    } catch {
      toast({ title: t('memberImport.inviteFailed'), variant: 'destructive' })
    } finally {
      setInviting(false)
    }
  }
  const pct = progress ? progressPercent(progress) : 0

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto" data-testid="csv-import-dialog">
        <DialogHeader>
          <DialogTitle>{t('memberImport.title')}</DialogTitle>
          <DialogDescription>{t('memberImport.description', { name })}</DialogDescription>
        </DialogHeader>
        {report ? (
          <div className="grid gap-3" data-testid="import-report" role="status">
            <p className="font-medium">{t('memberImport.doneTitle')}</p>
            <ul className="grid gap-1 text-sm">
              <li>{t('memberImport.added', { count: report.added })}</li>
              <li>{t('memberImport.existing', { count: report.existing })}</li>
              <li>{t('memberImport.skipped', { count: report.skipped.length })}</li>
            </ul>
            {report.skipped.length > 0 && (
              <ul className="max-h-48 overflow-y-auto rounded-md border text-xs" aria-label={t('memberImport.skippedRows')}>
                {report.skipped.map((s) => (
                  <li key={`${s.row}-${s.email}`} className="border-b px-3 py-1.5 last:border-0">
                    {t('memberImport.skippedRow', { row: s.row, email: s.email || '—', message: s.message || s.reason })}
                  </li>
                ))}
              </ul>
            )}
            {invited !== undefined ? (
              <p className="text-sm font-medium" data-testid="import-invited">
                {t('memberImport.invited', { count: invited })}
              </p>
            ) : (
              report.toInvite.length > 0 && (
                <p className="text-sm text-muted-foreground" data-testid="import-not-invited">
                  {t('memberImport.notInvited', { count: report.toInvite.length })}
                </p>
              )
            )}
            <DialogFooter>
              {invited === undefined && report.toInvite.length > 0 && (
                <Button variant="outline" onClick={() => void invite()} disabled={inviting}>
                  {inviting ? t('memberImport.inviting') : t('memberImport.invite', { count: report.toInvite.length })}
                </Button>
              )}
              <Button onClick={() => close(false)}>{t('memberImport.close')}</Button>
            </DialogFooter>
          </div>
        ) : (
          <div className="grid gap-4">
            <p className="text-sm text-muted-foreground">{t('memberImport.columns')}</p>
            <Button variant="link" className="justify-self-start px-0" onClick={() => void downloadImportTemplate().catch(() => toast({ title: t('memberImport.templateFailed'), variant: 'destructive' }))}>
              <Download aria-hidden />
              {t('memberImport.template')}
            </Button>
            <label className="grid gap-1.5 text-sm font-medium">
              {t('memberImport.file')}
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
                  aria-label={t('memberImport.progress')}
                >
                  <div className="h-full bg-primary transition-[width]" style={{ width: `${pct}%` }} />
                </div>
                <p className="text-xs text-muted-foreground">
                  {progress ? t('memberImport.processed', { processed: progress.processed, total: progress.total }) : t('memberImport.uploading')}
                </p>
              </div>
            )}
            {warning && (
              <div role="alert" className="flex gap-2 rounded-md border border-destructive/50 p-3 text-sm">
                <TriangleAlert className="size-4 shrink-0 text-destructive" aria-hidden />
                <div>
                  <p className="font-medium">{t('memberImport.failedTitle')}</p>
                  <p className="text-muted-foreground">{warning}</p>
                </div>
              </div>
            )}
            <DialogFooter>
              <Button variant="outline" onClick={() => close(false)}>
                {t('memberImport.cancel')}
              </Button>
              <Button onClick={() => void save()} disabled={!file || running}>
                {running ? t('memberImport.saving') : t('memberImport.save')}
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  )
}
