import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ImagePlus, Link2, Paperclip } from 'lucide-react'
import { Button } from '@/components/ui/button'
import type { UploadKind } from './use-upload'

/**
 * AttachButtons offer the post's one attachment: the image and file buttons
 * open (or close) their drop zone, the link button the link dialog.
 */
export function AttachButtons({ dropZone, onDropZone, onLink }: { dropZone: UploadKind | null; onDropZone: (kind: UploadKind) => void; onLink: () => void }) {
  const { t } = useTranslation()
  return (
    <div role="group" aria-label={t('composer.attach.group')} className="flex items-center gap-1">
      <AttachButton label={t('composer.attach.image')} pressed={dropZone === 'image'} onClick={() => onDropZone('image')}>
        <ImagePlus />
      </AttachButton>
      <AttachButton label={t('composer.attach.file')} pressed={dropZone === 'file'} onClick={() => onDropZone('file')}>
        <Paperclip />
      </AttachButton>
      <AttachButton label={t('composer.attach.link')} onClick={onLink}>
        <Link2 />
      </AttachButton>
    </div>
  )
}

function AttachButton({ label, pressed, onClick, children }: { label: string; pressed?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <Button type="button" variant="ghost" size="icon" aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      {children}
    </Button>
  )
}
