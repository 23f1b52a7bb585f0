import { useTranslation } from 'react-i18next'
import { FileText, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { LinkPreviewCard } from './link-preview-card'
import type { ComposerContent } from './use-composer'

type Attachment = 'image' | 'file' | 'link'

/** AttachmentPreview shows the composer's image, file or web link, each with its remove button. */
export function AttachmentPreview({ content, onRemove }: { content: ComposerContent; onRemove: (what: Attachment) => void }) {
  const { t } = useTranslation()
  return (
    <>
      {content.image && (
        <div className="relative w-fit">
          <img
            src={content.image.url}
            alt={t('composer.attach.attachedImage')}
            className="max-h-[200px] max-w-full rounded-md border object-contain"
          />
          <RemoveButton label={t('composer.attach.removeImage')} onClick={() => onRemove('image')} />
        </div>
      )}
      {content.file && (
        <div className="relative flex items-center gap-2 rounded-md border p-2 pr-10 text-sm">
          <FileText aria-hidden className="size-5 shrink-0 text-muted-foreground" />
          <span className="truncate">{content.file.name}</span>
          <RemoveButton label={t('composer.attach.removeFile', { name: content.file.name })} onClick={() => onRemove('file')} />
        </div>
      )}
      {content.link && <LinkPreviewCard link={content.link} onRemove={() => onRemove('link')} />}
    </>
  )
}

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Button
      type="button"
      variant="secondary"
      size="icon"
      className="absolute right-1 top-1 size-7 opacity-90"
      onClick={onClick}
      aria-label={label}
    >
      <X />
    </Button>
  )
}
