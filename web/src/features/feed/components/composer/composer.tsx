import { useId, useRef, useState, type ClipboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { FileText, ImagePlus, Link2, Loader2, Paperclip, X } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { useCreateThread } from '../../api/create-thread'
import { toThreadLink, type AttachedLink } from '../../api/link-preview'
import type { Thread } from '../../lib/thread-cache'
import type { UploadResult } from '../../api/upload'
import { DropZone } from './drop-zone'
import { LinkDialog } from './link-dialog'
import { LinkPreviewCard } from './link-preview-card'
import { MessageEditor } from './message-editor'
import { MAX_POST_TEXT } from './text'
import { UploadWarningDialog } from './upload-warning-dialog'
import { SUPPORTED_IMAGE_TYPES, imageTypesList, useUpload, type UploadKind } from './use-upload'

/** ComposerContent is what a post holds besides its kind: text and at most one attachment. */
export type ComposerContent = {
  raw: string
  image: Schemas['ThreadImage'] | null
  file: Schemas['ThreadFile'] | null
  link: AttachedLink | null
}

export const emptyContent: ComposerContent = { raw: '', image: null, file: null, link: null }

/** canSubmit: a post needs text, an image, a file or a link (spec 001 §4; the server also takes a link alone). */
export const canSubmit = (c: ComposerContent) => c.raw.trim() !== '' || !!c.image || !!c.file || !!c.link

export interface ComposerProps {
  series: Schemas['Forum']
  /** The channel posted to: the forum's main channel, or its admin channel. */
  channelId: string
  kind: 'post' | 'question'
  variant: 'inline' | 'dialog'
  /** The dialog variant's state. */
  open?: boolean
  onOpenChange?: (open: boolean) => void
  /** What Cancel restores; empty by default. */
  initial?: ComposerContent
  onPosted?: (thread: Thread) => void
}

/**
 * Composer writes a post or a question in a forum channel (spec 001 §2, §4
 * "Composer", §5): text through the message editor (at most 4000
 * characters), and one image, file or web link. Submit is enabled only with
 * content and not while an upload runs; Cancel restores the initial content.
 * A question may be asked anonymously. A failed post shows
 * global:error.feedPostCreating and keeps what was written.
 */
export function Composer({ variant, open, onOpenChange, ...props }: ComposerProps) {
  const { t } = useTranslation()
  if (variant === 'inline') return <ComposerForm {...props} />
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        className="max-h-[calc(100dvh-2rem)] max-w-[calc(100vw-2rem)] overflow-y-auto sm:max-w-xl"
        // Escape first closes the editor's suggestion list, not the dialog.
        onEscapeKeyDown={(e) => {
          if ((e.target as HTMLElement | null)?.getAttribute?.('aria-controls')) e.preventDefault()
        }}
      >
        <DialogHeader>
          <DialogTitle>{t(`composer.title.${props.kind}`)}</DialogTitle>
          <DialogDescription>{t(`composer.description.${props.kind}`)}</DialogDescription>
        </DialogHeader>
        {open && (
          <ComposerForm
            {...props}
            autoFocus
            onCancel={() => onOpenChange?.(false)}
            onPosted={(thread) => {
              onOpenChange?.(false)
              props.onPosted?.(thread)
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  )
}

type FormProps = Omit<ComposerProps, 'variant' | 'open' | 'onOpenChange'> & { autoFocus?: boolean; onCancel?: () => void }

function ComposerForm({ series, channelId, kind, initial = emptyContent, onPosted, onCancel, autoFocus }: FormProps) {
  const { t } = useTranslation()
  const user = useCurrentUser()?.user
  const [content, setContent] = useState<ComposerContent>(initial)
  const [creatorAs, setCreatorAs] = useState<'author' | 'anonymous'>('author')
  const [dropZone, setDropZone] = useState<UploadKind | null>(null)
  const [linkOpen, setLinkOpen] = useState(false)
  const editor = useRef<HTMLTextAreaElement>(null)
  const anonymousHintId = useId()
  const create = useCreateThread(series.id)

  const upload = useUpload((k, r: UploadResult) => {
    setDropZone(null)
    setContent((c) =>
      k === 'image' ? { ...c, image: { url: r.url } } : { ...c, file: { id: r.id, name: r.name, url: r.url, mediaType: r.mediaType } },
    )
  })

  const attached = !!content.image || !!content.file || !!content.link
  const busy = create.isPending || !!upload.progress
  const ready = canSubmit(content) && !busy

  const reset = () => {
    setContent(initial)
    setCreatorAs('author')
    setDropZone(null)
    upload.cancel()
    create.reset()
  }

  const submit = () => {
    if (!ready) return
    create.mutate(
      {
        channelId,
        raw: content.raw.trim(),
        image: content.image,
        file: content.file,
        link: content.link && toThreadLink(content.link),
        type: kind,
        // Only a question may be anonymous (spec 001 §3).
        creatorAs: kind === 'question' ? creatorAs : 'author',
      },
      {
        onSuccess: (thread) => {
          setContent(emptyContent)
          setCreatorAs('author')
          onPosted?.(thread)
        },
      },
    )
  }

  // A pasted picture becomes the post's image (spec 001 §5): of a supported
  // type, else the warning lists the types. Pasted text is left to the editor.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const file = Array.from(e.clipboardData?.files ?? []).find((f) => f.type.startsWith('image/'))
    if (!file) return
    e.preventDefault()
    if (attached || upload.progress) {
      upload.reject({ key: 'composer.upload.oneImage' })
      return
    }
    if (!(SUPPORTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      upload.reject({ key: 'composer.upload.imageTypes', values: { types: imageTypesList() } })
      return
    }
    void upload.start(file, 'image')
  }

  return (
    <form
      className={cn('grid gap-3', 'min-w-0')}
      aria-label={t(`composer.title.${kind}`)}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      {kind === 'question' && (
        <fieldset className="grid gap-1.5" aria-describedby={anonymousHintId}>
          <legend className="mb-1.5 text-sm font-medium">{t('composer.askAs')}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            <Choice name={`as-${anonymousHintId}`} checked={creatorAs === 'author'} onChange={() => setCreatorAs('author')}>
              {t('composer.asAuthor')}
              {user && <span className="text-muted-foreground"> ({`${user.firstName} ${user.lastName}`.trim()})</span>}
            </Choice>
            <Choice name={`as-${anonymousHintId}`} checked={creatorAs === 'anonymous'} onChange={() => setCreatorAs('anonymous')}>
              {t('composer.asAnonymous')}
            </Choice>
          </div>
          <p id={anonymousHintId} className="text-xs text-muted-foreground">
            {t('composer.anonymousHint')}
          </p>
        </fieldset>
      )}

      <MessageEditor
        ref={editor}
        seriesId={series.id}
        value={content.raw}
        onChange={(raw) => setContent((c) => ({ ...c, raw }))}
        onSubmit={submit}
        label={t(`composer.textLabel.${kind}`)}
        placeholder={t(`composer.placeholder.${kind}`)}
        maxLength={MAX_POST_TEXT}
        onPaste={onPaste}
        autoFocus={autoFocus}
        rows={4}
      />

      {content.image && (
        <div className="relative w-fit">
          <img
            src={content.image.url}
            alt={t('composer.attach.attachedImage')}
            className="max-h-[200px] max-w-full rounded-md border object-contain"
          />
          <RemoveButton label={t('composer.attach.removeImage')} onClick={() => setContent((c) => ({ ...c, image: null }))} />
        </div>
      )}
      {content.file && (
        <div className="relative flex items-center gap-2 rounded-md border p-2 pr-10 text-sm">
          <FileText aria-hidden className="size-5 shrink-0 text-muted-foreground" />
          <span className="truncate">{content.file.name}</span>
          <RemoveButton
            label={t('composer.attach.removeFile', { name: content.file.name })}
            onClick={() => setContent((c) => ({ ...c, file: null }))}
          />
        </div>
      )}
      {content.link && <LinkPreviewCard link={content.link} onRemove={() => setContent((c) => ({ ...c, link: null }))} />}

      {upload.progress && (
        <div className="flex items-center gap-3 rounded-md border p-2 text-sm">
          <Loader2 aria-hidden className="size-4 shrink-0 animate-spin text-muted-foreground" />
          <div className="grid min-w-0 flex-1 gap-1">
            <span className="truncate">{t('composer.upload.uploading', { name: upload.progress.name })}</span>
            <progress
              className="h-2 w-full overflow-hidden rounded-full [&::-moz-progress-bar]:bg-primary [&::-webkit-progress-bar]:bg-muted [&::-webkit-progress-value]:bg-primary"
              max={100}
              value={upload.progress.percent}
              aria-label={t('composer.upload.progress')}
            />
          </div>
          <span className="w-10 text-right tabular-nums" aria-hidden>
            {upload.progress.percent}%
          </span>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="size-7"
            onClick={upload.cancel}
            aria-label={t('composer.upload.cancel')}
          >
            <X />
          </Button>
        </div>
      )}

      {dropZone && !attached && !upload.progress && (
        <DropZone kind={dropZone} onFile={(f) => void upload.start(f, dropZone)} onClose={() => setDropZone(null)} />
      )}

      <div className="flex flex-wrap items-center gap-2">
        {!attached && !upload.progress && (
          <div role="group" aria-label={t('composer.attach.group')} className="flex items-center gap-1">
            <AttachButton
              label={t('composer.attach.image')}
              pressed={dropZone === 'image'}
              onClick={() => setDropZone((z) => (z === 'image' ? null : 'image'))}
            >
              <ImagePlus />
            </AttachButton>
            <AttachButton
              label={t('composer.attach.file')}
              pressed={dropZone === 'file'}
              onClick={() => setDropZone((z) => (z === 'file' ? null : 'file'))}
            >
              <Paperclip />
            </AttachButton>
            <AttachButton label={t('composer.attach.link')} onClick={() => setLinkOpen(true)}>
              <Link2 />
            </AttachButton>
          </div>
        )}
        <div className="ml-auto flex gap-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => {
              reset()
              onCancel?.()
            }}
          >
            {t('composer.cancel')}
          </Button>
          <Button type="submit" disabled={!ready}>
            {create.isPending && <Loader2 aria-hidden className="animate-spin" />}
            {create.isPending ? t('composer.posting') : t(`composer.submit.${kind}`)}
          </Button>
        </div>
      </div>

      <LinkDialog
        open={linkOpen}
        onOpenChange={(o) => {
          setLinkOpen(o)
          if (!o) requestAnimationFrame(() => editor.current?.focus())
        }}
        initial={content.link}
        onSave={(link) => setContent((c) => ({ ...c, link }))}
      />
      <UploadWarningDialog warning={upload.warning && t(upload.warning.key, upload.warning.values)} onConfirm={upload.dismissWarning} />
    </form>
  )
}

function Choice({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm">
      <input type="radio" name={name} checked={checked} onChange={onChange} className="size-4 accent-primary" />
      <span>{children}</span>
    </label>
  )
}

function AttachButton({
  label,
  pressed,
  onClick,
  children,
}: {
  label: string
  pressed?: boolean
  onClick: () => void
  children: ReactNode
}) {
  return (
    <Button type="button" variant="ghost" size="icon" aria-label={label} title={label} aria-pressed={pressed} onClick={onClick}>
      {children}
    </Button>
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
