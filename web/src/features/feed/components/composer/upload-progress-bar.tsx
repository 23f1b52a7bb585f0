import { useTranslation } from 'react-i18next'
import { Loader2, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { UploadProgress } from './use-upload'

/** UploadProgressBar shows the running upload: its file, its percentage and a cancel button. */
export function UploadProgressBar({ progress, onCancel }: { progress: UploadProgress; onCancel: () => void }) {
  const { t } = useTranslation()
  return (
    <div className="flex items-center gap-3 rounded-md border p-2 text-sm">
      <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-muted-foreground" />
      <div className="grid min-w-0 flex-1 gap-1">
        <span className="truncate">{t('composer.upload.uploading', { name: progress.name })}</span>
        <progress
          className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-primary [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary"
          max={100}
          value={progress.percent}
          aria-label={t('composer.upload.progress')}
        />
      </div>
      <span className="w-10 text-right tabular-nums" aria-hidden>
        {progress.percent}%
      </span>
      <Button type="button" variant="ghost" size="icon" className="size-7" onClick={onCancel} aria-label={t('composer.upload.cancel')}>
        <X />
      </Button>
    </div>
  )
}
