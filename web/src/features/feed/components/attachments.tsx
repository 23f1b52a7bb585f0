import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ExternalLink, FileText } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { embedFor, formatFileSize, httpUrl, officeKind, ownBlob, readPreview, viewableInline } from '@/lib/media'
import { fileSizeQuery } from '../api/get-file'
import type { Thread } from '../lib/thread-cache'
import { DownloadLink, FileView } from './file-viewer'
import { WebLink } from './web-link'

/** PostImage is a post's image; it opens in a lightbox. */
export function PostImage({ image }: { image: NonNullable<Thread['image']> }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const src = httpUrl(image.url)
  if (!src) return null
  return (
    <>
      <button
        type="button"
        className="block w-full overflow-hidden rounded-md border bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        onClick={() => setOpen(true)}
        aria-label={t('feed.image.open')}
        data-testid="post-image"
      >
        <img src={src} alt={t('feed.image.alt')} loading="lazy" referrerPolicy="no-referrer" className="mx-auto max-h-[28rem] max-w-full object-contain" />
      </button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent className="max-w-[min(96vw,1200px)] p-2 sm:p-4" data-testid="lightbox">
          <DialogHeader className="sr-only">
            <DialogTitle>{t('feed.image.title')}</DialogTitle>
            <DialogDescription>{t('feed.image.alt')}</DialogDescription>
          </DialogHeader>
          <img src={src} alt={t('feed.image.alt')} referrerPolicy="no-referrer" className="max-h-[85vh] w-full object-contain" />
        </DialogContent>
      </Dialog>
    </>
  )
}

/**
 * PostFile is a post's file. A file of this server's blob store that the
 * viewer can show (see viewableInline: an image, a PDF, audio or video)
 * has View, which opens the fullscreen file viewer; every file has its
 * Download, with its kind and size (an office document is named for what
 * it is: no browser renders one, so it is not faked). Nothing is framed.
 */
export function PostFile({ file }: { file: NonNullable<Thread['file']> }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const src = httpUrl(file.url)
  const own = src ? ownBlob(src) : undefined
  const inline = own ? viewableInline(file.mediaType) : undefined
  // The size is asked of the server (HEAD) only for a file that is just a
  // download: the post does not carry it.
  const size = useQuery({ ...fileSizeQuery(own ?? ''), enabled: !!own && !inline })
  if (!src) return null
  const office = officeKind(file.name)
  const kind = office ? t(`feed.file.kind.${office}`) : file.mediaType
  return (
    <div className="flex items-center gap-3 rounded-md border p-3" data-testid="post-file" data-viewer={inline ?? 'download'}>
      <FileText className="size-8 shrink-0 text-muted-foreground" aria-hidden />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium">{file.name}</p>
        <p className="truncate text-xs text-muted-foreground" data-testid="post-file-meta">
          {size.data !== undefined ? `${kind} · ${formatFileSize(size.data)}` : kind}
        </p>
      </div>
      {inline && (
        <Button variant="outline" size="sm" onClick={() => setOpen(true)}>
          {t('feed.file.view')}
        </Button>
      )}
      <DownloadLink src={src} name={file.name} />
      {inline && own && (
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogContent className="flex h-[95vh] max-w-[98vw] flex-col p-3 sm:p-4" data-testid="file-viewer" data-kind={inline}>
            <DialogHeader className="flex-row items-center gap-3 space-y-0 pr-8">
              <DialogTitle className="min-w-0 flex-1 truncate">{t('feed.file.viewerTitle', { name: file.name })}</DialogTitle>
              <DialogDescription className="sr-only">{file.mediaType}</DialogDescription>
              <DownloadLink src={own} name={file.name} variant="outline" />
            </DialogHeader>
            {open && <FileView kind={inline} src={own} name={file.name} />}
          </DialogContent>
        </Dialog>
      )}
    </div>
  )
}

/** PostLink is a post's web link: an embedded player for YouTube, Vimeo and Kaltura, else its preview card. */
export function PostLink({ link }: { link: NonNullable<Thread['link']> }) {
  const { t } = useTranslation()
  const href = httpUrl(link.url)
  if (!href) return null
  const preview = readPreview(link.preview)
  const embed = link.viewerType === 'embedded' ? embedFor(href) : undefined
  if (embed) {
    return (
      <div className="overflow-hidden rounded-md border" data-testid="post-embed" data-provider={embed.provider}>
        <div className="relative aspect-video w-full bg-black">
          <iframe
            src={embed.src}
            title={t('feed.link.player', { title: preview.title ?? t('feed.link.video') })}
            className="absolute inset-0 size-full"
            allow="encrypted-media; fullscreen; picture-in-picture"
            sandbox="allow-scripts allow-same-origin allow-presentation allow-popups"
            referrerPolicy="strict-origin-when-cross-origin"
            loading="lazy"
            allowFullScreen
          />
        </div>
        {preview.title && <p className="truncate px-3 py-2 text-sm font-medium">{preview.title}</p>}
      </div>
    )
  }
  const host = new URL(href).hostname
  return (
    <WebLink
      href={href}
      className="flex overflow-hidden rounded-md border hover:bg-accent/50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      testId="post-link"
    >
      {preview.image && <img src={preview.image} alt="" loading="lazy" referrerPolicy="no-referrer" className="hidden w-32 shrink-0 object-cover sm:block" />}
      <span className="flex min-w-0 flex-1 flex-col gap-0.5 p-3">
        <span className="truncate text-xs text-muted-foreground">{preview.siteName ?? host}</span>
        <span className="line-clamp-2 text-sm font-medium">{preview.title ?? href}</span>
        {preview.description && <span className="line-clamp-2 text-xs text-muted-foreground">{preview.description}</span>}
      </span>
      <ExternalLink className="m-3 size-4 shrink-0 text-muted-foreground" aria-hidden />
    </WebLink>
  )
}
