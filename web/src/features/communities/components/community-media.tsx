import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Play } from 'lucide-react'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { embedFor } from '@/lib/media'
import { cn } from '@/lib/utils'
import type { Community } from '../api/types'

type Media = Pick<Community, 'name' | 'image' | 'video' | 'videoCover'>

/** playerSrc is the embedded player of a YouTube or Vimeo link, asking for 1080p (spec 000 §2.4). */
export function playerSrc(video: string | null | undefined): string | undefined {
  const e = video ? embedFor(video) : undefined
  if (!e || (e.provider !== 'youtube' && e.provider !== 'vimeo')) return undefined
  return e.provider === 'youtube' ? `${e.src}?vq=hd1080&autoplay=1` : `${e.src}?quality=1080p&autoplay=1`
}

/**
 * CommunityCover is the community's image (or its video's cover, or the
 * default image: its initial) with a play button over it when it has a
 * video, which opens the video player dialog.
 */
export function CommunityCover({ community: c, className }: { community: Media; className?: string }) {
  const { t } = useTranslation()
  const [playing, setPlaying] = useState(false)
  const src = playerSrc(c.video)
  const picture = (c.video && c.videoCover) || c.image
  return (
    <div className={cn('relative shrink-0 overflow-hidden bg-primary', className)}>
      {picture ? (
        <img src={picture} alt="" className="size-full object-cover" />
      ) : (
        <div aria-hidden className="flex size-full items-center justify-center text-lg font-semibold text-primary-foreground" data-testid="default-image">
          {c.name.slice(0, 1).toUpperCase()}
        </div>
      )}
      {src && (
        <>
          <button
            type="button"
            onClick={() => setPlaying(true)}
            className="absolute inset-0 flex items-center justify-center bg-black/25 text-white hover:bg-black/40 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            aria-label={t('communities.video.play', { name: c.name })}
          >
            <Play className="size-1/3 max-h-10 max-w-10 fill-current" aria-hidden />
          </button>
          <Dialog open={playing} onOpenChange={setPlaying}>
            <DialogContent className="max-w-4xl p-2 pt-10">
              <DialogHeader className="sr-only">
                <DialogTitle>{c.name}</DialogTitle>
                <DialogDescription>{t('communities.video.description')}</DialogDescription>
              </DialogHeader>
              {playing && (
                <iframe
                  src={src}
                  title={t('communities.video.title', { name: c.name })}
                  className="aspect-video w-full rounded-md"
                  allow="autoplay; fullscreen; picture-in-picture"
                  allowFullScreen
                />
              )}
            </DialogContent>
          </Dialog>
        </>
      )}
    </div>
  )
}
