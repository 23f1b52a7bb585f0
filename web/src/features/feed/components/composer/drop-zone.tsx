import { useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Upload, X } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'
import { SUPPORTED_IMAGE_TYPES, type UploadKind } from './use-upload'

/**
 * DropZone takes one file, dropped on it or chosen with the file picker
 * (spec 001 §5 "Uploads": 'Max Upload Size: 3MB' for images, 'Max Upload
 * Size: 50MB' for files; a single file for images). Several dropped files
 * are refused by passing none, which the upload check reports as an invalid
 * file.
 */
export function DropZone({ kind, onFile, onClose }: { kind: UploadKind; onFile: (f: File | null) => void; onClose: () => void }) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [over, setOver] = useState(false)
  const hintId = useId()
  const take = (files: FileList | null) => onFile(files && files.length === 1 ? files[0]! : null)
  return (
    <div
      data-testid={`drop-zone-${kind}`}
      className={cn(
        'relative flex flex-col items-center gap-1 rounded-md border-2 border-dashed p-4 text-center text-sm transition-colors',
        over ? 'border-primary bg-accent' : 'border-input',
      )}
      onDragOver={(e) => {
        e.preventDefault()
        e.dataTransfer.dropEffect = 'copy'
        setOver(true)
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault()
        setOver(false)
        take(e.dataTransfer.files)
      }}
    >
      <Upload aria-hidden className="size-6 text-muted-foreground" />
      <p>
        {t(kind === 'image' ? 'composer.upload.imageDrop' : 'composer.upload.fileDrop')}{' '}
        <Button type="button" variant="link" className="h-auto p-0" aria-describedby={hintId} onClick={() => input.current?.click()}>
          {t(kind === 'image' ? 'composer.upload.browseImage' : 'composer.upload.browseFile')}
        </Button>
      </p>
      <p id={hintId} className="text-xs text-muted-foreground">
        {t(kind === 'image' ? 'composer.upload.maxImage' : 'composer.upload.maxFile')}
      </p>
      <input
        ref={input}
        type="file"
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        data-testid={`file-input-${kind}`}
        accept={kind === 'image' ? SUPPORTED_IMAGE_TYPES.join(',') : undefined}
        onChange={(e) => {
          take(e.target.files)
          e.target.value = ''
        }}
      />
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="absolute right-1 top-1 size-7"
        onClick={onClose}
        aria-label={t('composer.upload.closeDrop')}
      >
        <X />
      </Button>
    </div>
  )
}
