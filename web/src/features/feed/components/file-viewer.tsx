import { useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Download, FileWarning } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { Viewable } from '@/lib/media'
import { PdfViewer, type PdfState } from './pdf-viewer'

/** DownloadLink is a file's download: the signed URL, saved under the file's name. */
export function DownloadLink({ src, name, variant = 'ghost' }: { src: string; name: string; variant?: 'ghost' | 'outline' | 'default' }) {
  const { t } = useTranslation()
  return (
    <Button variant={variant} size="sm" asChild>
      <a href={src} download={name} target="_blank" rel="noopener noreferrer">
        <Download aria-hidden />
        {t('feed.file.download')}
      </a>
    </Button>
  )
}

/** CannotShow is the viewer's error state: the file could not be read or played, so it is offered as a download. */
function CannotShow({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation()
  return (
    <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-3 p-6 text-center" data-testid="file-viewer-error">
      <FileWarning className="size-10 text-muted-foreground" aria-hidden />
      <p className="font-medium">{t('feed.file.cannotShow')}</p>
      <p className="text-sm text-muted-foreground">{t('feed.file.cannotShowHint')}</p>
      <DownloadLink src={src} name={name} variant="default" />
    </div>
  )
}

/**
 * FileView is what the fullscreen file viewer shows of a file of this
 * server's blob store (see viewableInline): an image, a PDF drawn by
 * pdf.js, or an <audio> or <video> player of its signed URL, which the
 * server serves inline with byte ranges so the player can seek. Whatever
 * fails to load or decode turns into "This file can't be shown here" and
 * its download. Nothing is framed.
 */
export function FileView({ kind, src, name }: { kind: Viewable; src: string; name: string }) {
  const { t } = useTranslation()
  const [failed, setFailed] = useState(false)
  const onPdf = useCallback((s: PdfState) => setFailed(s === 'error'), [])
  if (failed) return <CannotShow src={src} name={name} />
  const fail = () => setFailed(true)
  switch (kind) {
    case 'image':
      return <img src={src} alt={name} referrerPolicy="no-referrer" onError={fail} className="min-h-0 w-full flex-1 object-contain" data-testid="file-viewer-image" />
    case 'pdf':
      return <PdfViewer src={src} name={name} onState={onPdf} />
    case 'audio':
      return (
        <div className="flex flex-1 items-center justify-center p-6">
          <audio controls preload="metadata" src={src} onError={fail} aria-label={t('feed.file.audio', { name })} className="w-full max-w-xl" data-testid="file-viewer-audio" />
        </div>
      )
    case 'video':
      return (
        <video
          controls
          preload="metadata"
          playsInline
          src={src}
          onError={fail}
          aria-label={t('feed.file.video', { name })}
          className="min-h-0 w-full flex-1 bg-black object-contain"
          data-testid="file-viewer-video"
        />
      )
  }
}
