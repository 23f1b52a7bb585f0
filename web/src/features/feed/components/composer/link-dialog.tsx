import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { Loader2 } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { linkPreviewQuery, type AttachedLink } from '../../api/link-preview'
import { LinkPreviewCard } from './link-preview-card'
import { normalizeLink, viewerTypeOf } from './text'
import { useDebouncedValue } from '@/hooks/use-debounced-value'

const PREVIEW_DEBOUNCE_MS = 250

export interface LinkDialogProps {
  open: boolean
  onOpenChange: (open: boolean) => void
  /** The link already attached, if any: the dialog starts from it. */
  initial?: AttachedLink | null
  onSave: (link: AttachedLink) => void
}

/**
 * LinkDialog is 'Add a Web Link' (spec 001 §2, §5 "Links"): the typed address
 * gets https:// when it has no scheme, an invalid one flags the field, and
 * Save waits for a valid link. The server's preview is fetched 250 ms after
 * typing stops; a failed preview is logged and dropped, and the link is then
 * saved without one (a post may carry a bare link).
 */
export function LinkDialog({ open, onOpenChange, initial, onSave }: LinkDialogProps) {
  const { t } = useTranslation()
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{t('composer.link.title')}</DialogTitle>
          <DialogDescription>{t('composer.link.description')}</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so each opening starts from `initial`. */}
        {open && (
          <LinkForm
            initial={initial}
            onCancel={() => onOpenChange(false)}
            onSave={(l) => {
              onSave(l)
              onOpenChange(false)
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

function LinkForm({
  initial,
  onSave,
  onCancel,
}: {
  initial?: AttachedLink | null
  onSave: (l: AttachedLink) => void
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const id = useId()
  const [text, setText] = useState(initial?.url ?? '')
  const [touched, setTouched] = useState(false)
  const url = normalizeLink(text)
  const settledText = useDebouncedValue(text, PREVIEW_DEBOUNCE_MS)
  const settledUrl = normalizeLink(settledText)
  // Typing has not paused on this address yet. Compared as normalised
  // addresses, so the rewrite on blur ("example.com" → "https://example.com/")
  // does not start another wait.
  const waiting = !!url && settledUrl !== url
  // An address is judged once typing pauses or the field is left, so the
  // error does not flash at every keystroke.
  const invalid = text.trim() !== '' && !url && (touched || settledText === text)

  const preview = useQuery({ ...linkPreviewQuery(settledUrl ?? ''), enabled: !!settledUrl && !waiting })
  useEffect(() => {
    if (preview.error) console.warn('link preview failed', settledUrl, preview.error)
  }, [preview.error, settledUrl])

  // The link to save: the server's reading of it when the preview worked,
  // else the bare address.
  const link: AttachedLink | null = !url ? null : preview.data && settledUrl === url ? preview.data : { url, viewerType: viewerTypeOf(url) }
  const loading = waiting || (!!url && preview.isFetching)

  return (
    <form
      className="grid gap-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        // The dialog is portaled out of the composer's form in the DOM but
        // not in React's tree, where a submit bubbles on to the composer
        // and would post it early, without the link.
        e.stopPropagation()
        if (link && !loading) onSave(link)
      }}
    >
      <div className="grid gap-1.5">
        <Label htmlFor={id}>{t('composer.link.label')}</Label>
        <Input
          id={id}
          type="url"
          inputMode="url"
          autoComplete="url"
          autoFocus
          value={text}
          placeholder={t('composer.link.placeholder')}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
          onChange={(e) => {
            setText(e.target.value)
            setTouched(false)
          }}
          onBlur={() => {
            setTouched(true)
            // Show the address as it will be saved.
            if (url && url !== text) setText(url)
          }}
        />
        {invalid && (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
            {t('composer.link.invalid')}
          </p>
        )}
      </div>
      <div aria-live="polite" className="min-h-6">
        {loading ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 aria-hidden className="size-4 animate-spin" />
            {t('composer.link.loading')}
          </p>
        ) : link?.preview ? (
          <LinkPreviewCard link={link} />
        ) : link && preview.isError ? (
          <p className="text-sm text-muted-foreground">{t('composer.link.noPreview')}</p>
        ) : null}
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('composer.cancel')}
        </Button>
        <Button type="submit" disabled={!link || loading}>
          {t('composer.link.save')}
        </Button>
      </DialogFooter>
    </form>
  )
}
