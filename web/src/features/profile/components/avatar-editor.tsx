import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Camera, Loader2, Trash2 } from 'lucide-react'
import type { User } from '@/api/client'
import { uploadFile } from '@/api/upload'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Slider } from '@/components/ui/slider'
import { IMAGE_TYPES, imageFileError } from '@/lib/forms'
import { useUpdateMe } from '../api/update-me'
import { ZOOM_MAX, ZOOM_MIN, clampCrop, placement, type Crop } from '../lib/crop'

/** The crop square on screen and the uploaded picture's side, in pixels. */
const VIEW = 240
const OUT = 512

/**
 * AvatarEditor changes the person's picture: a chosen image is cropped to
 * a square (zoom slider, drag to move), drawn to a canvas, uploaded as an
 * image (POST /api/sas, then the bytes) and set with PATCH /users/me
 * {avatar}; or the picture is removed.
 */
export function AvatarEditor({ user }: { user: User }) {
  const { t } = useTranslation()
  const input = useRef<HTMLInputElement>(null)
  const [image, setImage] = useState<ImageBitmap>()
  const [failure, setFailure] = useState<string>()
  const [busy, setBusy] = useState(false)
  const update = useUpdateMe()

  const onFile = (f: File | undefined) => {
    if (!f) return
    setFailure(undefined)
    const bad = imageFileError(f)
    if (bad) return setFailure(t(`profile.avatar.${bad}`))
    // Decoded straight from the file: the Content-Security-Policy allows
    // no blob: or data: image, and the picture needs no URL to be drawn.
    createImageBitmap(f).then(setImage, () => setFailure(t('profile.avatar.unreadable')))
  }
  const close = () => {
    image?.close()
    setImage(undefined)
    if (input.current) input.current.value = ''
  }
  const save = async (blob: Blob) => {
    setBusy(true)
    setFailure(undefined)
    try {
      const up = await uploadFile(new File([blob], 'avatar.png', { type: 'image/png' }), 'image')
      await update.mutateAsync({ avatar: up.url })
      close()
    } catch {
      setFailure(t('profile.avatar.failed'))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-4">
      <PersonAvatar person={user} className="size-20 text-xl" />
      <div className="grid gap-2">
        <div className="flex flex-wrap gap-2">
          <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()} disabled={busy || update.isPending}>
            <Camera aria-hidden />
            {t('profile.avatar.change')}
          </Button>
          {user.avatar && (
            <Button type="button" variant="ghost" size="sm" onClick={() => update.mutate({ avatar: null })} disabled={busy || update.isPending}>
              <Trash2 aria-hidden />
              {t('profile.avatar.remove')}
            </Button>
          )}
        </div>
        <input
          ref={input}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          className="sr-only"
          aria-label={t('profile.avatar.label')}
          data-testid="avatar-file"
          tabIndex={-1}
          onChange={(e) => onFile(e.target.files?.[0])}
        />
        {failure && !image && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {failure}
          </p>
        )}
      </div>
      {image && <CropDialog image={image} busy={busy} failure={failure} onCancel={close} onSave={(b) => void save(b)} />}
    </div>
  )
}

function CropDialog({ image, busy, failure, onCancel, onSave }: { image: ImageBitmap; busy: boolean; failure?: string; onCancel: () => void; onSave: (b: Blob) => void }) {
  const { t } = useTranslation()
  const canvas = useRef<HTMLCanvasElement>(null)
  const [crop, setCrop] = useState<Crop>({ zoom: ZOOM_MIN, x: 0, y: 0 })
  const drag = useRef<{ px: number; py: number; crop: Crop }>(undefined)

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d')
    if (!ctx) return
    const p = placement(image, VIEW, crop)
    ctx.clearRect(0, 0, VIEW, VIEW)
    ctx.drawImage(image, p.x, p.y, p.w, p.h)
  }, [image, crop])

  const done = () => {
    const out = document.createElement('canvas')
    out.width = out.height = OUT
    const ctx = out.getContext('2d')
    if (!ctx) return
    const p = placement(image, OUT, { ...crop, x: (crop.x * OUT) / VIEW, y: (crop.y * OUT) / VIEW })
    ctx.drawImage(image, p.x, p.y, p.w, p.h)
    out.toBlob((b) => b && onSave(b), 'image/png')
  }

  return (
    <Dialog open onOpenChange={(o) => !o && !busy && onCancel()}>
      <DialogContent className="sm:max-w-sm" data-testid="avatar-crop">
        <DialogHeader>
          <DialogTitle>{t('profile.avatar.cropTitle')}</DialogTitle>
          <DialogDescription>{t('profile.avatar.cropDescription')}</DialogDescription>
        </DialogHeader>
        <div className="grid justify-items-center gap-4">
          <canvas
            ref={canvas}
            width={VIEW}
            height={VIEW}
            className="cursor-move touch-none rounded-full border bg-muted"
            style={{ width: VIEW, height: VIEW }}
            aria-hidden
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId)
              drag.current = { px: e.clientX, py: e.clientY, crop }
            }}
            onPointerMove={(e) => {
              const d = drag.current
              if (d) setCrop(clampCrop(image, VIEW, { ...d.crop, x: d.crop.x + e.clientX - d.px, y: d.crop.y + e.clientY - d.py }))
            }}
            onPointerUp={() => (drag.current = undefined)}
          />
          <Slider
            aria-label={t('profile.avatar.zoom')}
            min={ZOOM_MIN}
            max={ZOOM_MAX}
            step={0.1}
            value={[crop.zoom]}
            valueText={(v) => `${Math.round(v * 100)}%`}
            onValueChange={([z]) => setCrop((c) => clampCrop(image, VIEW, { ...c, zoom: z ?? ZOOM_MIN }))}
            data-testid="avatar-zoom"
          />
        </div>
        {failure && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {failure}
          </p>
        )}
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
            {t('profile.avatar.cancel')}
          </Button>
          <Button type="button" onClick={done} disabled={busy}>
            {busy && <Loader2 className="animate-spin" aria-hidden />}
            {busy ? t('profile.avatar.uploading') : t('profile.avatar.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}
