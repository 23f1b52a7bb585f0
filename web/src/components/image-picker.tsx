import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ImagePlus, Loader2, X } from 'lucide-react'
import { uploadFile } from '@/api/upload'
import { Button } from '@/components/ui/button'
import { Label } from '@/components/ui/label'
import { IMAGE_TYPES, imageFileError } from '@/lib/forms'

/**
 * ImagePicker uploads one image (jpeg, png, gif or webp, up to 3 MB) the
 * way the composer does (POST /api/sas, then the bytes) and gives back its
 * URL; onUploading says while it runs, so a form can wait for it.
 */
export function ImagePicker({
  label,
  value,
  onChange,
  onUploading,
  error,
}: {
  label: string
  value: string
  onChange: (url: string) => void
  onUploading?: (busy: boolean) => void
  error?: string
}) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [uploading, setUploading] = useState(false)
  const [failure, setFailure] = useState<string>()
  const busy = (b: boolean) => {
    setUploading(b)
    onUploading?.(b)
  }
  const onFile = async (f: File | undefined) => {
    if (!f) return
    setFailure(undefined)
    const bad = imageFileError(f)
    if (bad) return setFailure(t(`imagePicker.${bad}`))
    busy(true)
    try {
      onChange((await uploadFile(f, 'image')).url)
    } catch {
      setFailure(t('imagePicker.uploadFailed'))
    } finally {
      busy(false)
    }
  }
  const shown = failure ?? error
  return (
    <div className="grid gap-1.5">
      <Label>{label}</Label>
      <div className="flex flex-wrap items-center gap-3">
        {value ? (
          <img src={value} alt={t('imagePicker.preview')} className="size-16 rounded-md object-cover" />
        ) : (
          <div className="flex size-16 items-center justify-center rounded-md border border-dashed text-muted-foreground" aria-hidden>
            <ImagePlus className="size-5" />
          </div>
        )}
        <input
          ref={input}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-label={t('imagePicker.choose')}
          data-testid="image-input"
          onChange={(e) => {
            void onFile(e.target.files?.[0])
            e.target.value = ''
          }}
        />
        <Button type="button" variant="outline" size="sm" disabled={uploading} onClick={() => input.current?.click()}>
          {uploading ? <Loader2 className="animate-spin" aria-hidden /> : <ImagePlus aria-hidden />}
          {uploading ? t('imagePicker.uploading') : t('imagePicker.choose')}
        </Button>
        {value && (
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange('')}>
            <X aria-hidden />
            {t('imagePicker.remove')}
          </Button>
        )}
      </div>
      <p className="text-xs text-muted-foreground">{t('imagePicker.hint')}</p>
      {shown && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {shown}
        </p>
      )}
    </div>
  )
}
