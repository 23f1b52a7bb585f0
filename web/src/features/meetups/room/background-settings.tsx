import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { LocalParticipant } from 'livekit-client'
import { ImagePlus, Loader2, Wallpaper } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/utils'
import { applyBackground, BACKGROUND_IMAGE_TYPES, backgroundFileError, readAsDataUrl, readBackground, saveBackground, type Background, type BackgroundType } from './background'

const CHOICES: BackgroundType[] = ['none', 'blur', 'image']

/**
 * BackgroundSettings is the virtual background's settings popover (spec 002
 * §2, §3, §5): None, Blur or an image, one file of the accepted types and
 * size read as a data URL. The choice is kept in this browser and applied
 * at once to the member's camera, on or off; it applies to every camera
 * they turn on in a Meet Up after that.
 */
export function BackgroundSettings({ participant }: { participant: LocalParticipant }) {
  const { t } = useTranslation()
  const [bg, setBg] = useState(readBackground)
  const [problem, setProblem] = useState<string>()
  const [busy, setBusy] = useState(false)
  const file = useRef<HTMLInputElement>(null)

  const choose = async (next: Background) => {
    setProblem(undefined)
    try {
      saveBackground(next)
    } catch {
      // QuotaExceededError: the image does not fit in this browser's storage beside the rest.
      return setProblem(t('meetups.room.background.imageStorage'))
    }
    setBg(next)
    setBusy(true)
    try {
      await applyBackground(participant, next)
    } catch {
      toast({ title: t('meetups.errors.7002'), variant: 'destructive' })
      const none = { ...next, type: 'none' as const }
      saveBackground(none)
      setBg(none)
      await applyBackground(participant, none).catch(() => undefined)
    } finally {
      setBusy(false)
    }
  }

  const onFile = async (f: File | undefined) => {
    if (!f) return
    const bad = backgroundFileError(f)
    if (bad) return setProblem(t(`meetups.room.background.${bad}`))
    let image: string
    try {
      image = await readAsDataUrl(f)
    } catch {
      return setProblem(t('meetups.room.background.unreadable'))
    }
    await choose({ type: 'image', image })
  }

  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button type="button" size="icon" variant={bg.type === 'none' ? 'secondary' : 'default'} aria-label={t('meetups.room.background.title')}>
          <Wallpaper aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent className="grid w-72 gap-3" aria-label={t('meetups.room.background.title')}>
        <fieldset className="grid gap-2" disabled={busy} aria-busy={busy}>
          <legend className="mb-1 text-sm font-medium">{t('meetups.room.background.title')}</legend>
          {CHOICES.map((c) => (
            <label key={c} className={cn('flex items-center gap-2 text-sm', c === 'image' && !bg.image && 'text-muted-foreground')}>
              <input
                type="radio"
                name="virtual-background"
                value={c}
                checked={bg.type === c}
                // An image is offered once one is chosen.
                disabled={c === 'image' && !bg.image}
                onChange={() => void choose({ ...bg, type: c })}
              />
              {t(`meetups.room.background.${c}`)}
            </label>
          ))}
        </fieldset>
        <input
          ref={file}
          type="file"
          accept={BACKGROUND_IMAGE_TYPES.join(',')}
          className="sr-only"
          tabIndex={-1}
          aria-label={t('meetups.room.background.choose')}
          data-testid="background-image-input"
          onChange={(e) => {
            void onFile(e.target.files?.[0])
            e.target.value = ''
          }}
        />
        <Button type="button" variant="outline" size="sm" disabled={busy} onClick={() => file.current?.click()}>
          {busy ? <Loader2 className="animate-spin" aria-hidden /> : <ImagePlus aria-hidden />}
          {t(bg.image ? 'meetups.room.background.change' : 'meetups.room.background.choose')}
        </Button>
        {busy && (
          <p role="status" className="text-sm text-muted-foreground">
            {t('meetups.room.background.starting')}
          </p>
        )}
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </PopoverContent>
    </Popover>
  )
}
