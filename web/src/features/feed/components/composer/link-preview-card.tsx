import { useTranslation } from 'react-i18next'
import { ExternalLink, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { AttachedLink } from '../../api/link-preview'

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** LinkPreviewCard shows an attached web link: the page's picture, title and description when a preview exists, else the address. */
export function LinkPreviewCard({ link, onRemove }: { link: AttachedLink; onRemove?: () => void }) {
  const { t } = useTranslation()
  const p = link.preview
  return (
    <div
      className="relative flex gap-3 overflow-hidden rounded-md border bg-card p-2 text-card-foreground"
      aria-label={t('composer.link.preview')}
      role="group"
    >
      {p?.image && <img src={p.image} alt="" className="size-20 shrink-0 rounded object-cover" loading="lazy" />}
      <div className="min-w-0 flex-1 pr-8 text-sm">
        <p className="truncate text-xs text-muted-foreground">{p?.siteName || hostOf(link.url)}</p>
        {p?.title && <p className="line-clamp-2 font-medium">{p.title}</p>}
        {p?.description && <p className="line-clamp-2 text-muted-foreground">{p.description}</p>}
        <a
          href={link.url}
          target="_blank"
          rel="noopener noreferrer"
          className="mt-1 inline-flex max-w-full items-center gap-1 text-xs text-primary underline-offset-4 hover:underline"
        >
          <span className="truncate">{link.url}</span>
          <ExternalLink aria-hidden className="size-3 shrink-0" />
        </a>
      </div>
      {onRemove && (
        <Button
          type="button"
          variant="ghost"
          size="icon"
          className="absolute right-1 top-1 size-7"
          onClick={onRemove}
          aria-label={t('composer.attach.removeLink')}
        >
          <X />
        </Button>
      )}
    </div>
  )
}
