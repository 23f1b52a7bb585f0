import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Loader2 } from 'lucide-react'
import type { Schemas } from '@/api/client'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { cn } from '@/lib/utils'
import { readDraft, useDraftKey, writeDraft } from '../../lib/drafts'
import type { Thread } from '../../lib/thread-cache'
import { ConfirmDialog } from '../confirm-delete-dialog'
import { AskAs } from './ask-as'
import { AttachButtons } from './attach-buttons'
import { AttachmentPreview } from './attachment-preview'
import { DropZone } from './drop-zone'
import { LinkDialog } from './link-dialog'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { useForumSuggestions } from '../../hooks/forum-suggestions'
import { MAX_POST_TEXT } from './text'
import { UploadProgressBar } from './upload-progress-bar'
import { UploadWarningDialog } from './upload-warning-dialog'
import { emptyContent, useComposer, type ComposerContent } from './use-composer'

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
 *
 * The text is kept as a draft of the forum (one for posts, one for
 * questions) while it is written: closing the dialog (Escape, a click
 * outside) or reloading keeps it for the next time; Cancel discards it after
 * asking; posting clears it.
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

/** ComposerForm lays out the composer's parts around useComposer's state. */
function ComposerForm({ series, channelId, kind, initial = emptyContent, onPosted, onCancel, autoFocus }: FormProps) {
  const { t } = useTranslation()
  const draftKey = useDraftKey(`${kind}:${series.id}`)
  const suggestions = useForumSuggestions(series.id)
  const c = useComposer({
    seriesId: series.id,
    channelId,
    kind,
    initial,
    draft: readDraft(draftKey),
    onPosted: (thread) => {
      writeDraft(draftKey, '')
      onPosted?.(thread)
    },
  })
  const raw = c.content.raw
  useEffect(() => {
    // What is posted clears the draft (onPosted): the emptied text must not write it back.
    if (!c.posting) writeDraft(draftKey, raw === initial.raw ? '' : raw)
  }, [draftKey, raw, initial.raw, c.posting])
  const [discarding, setDiscarding] = useState(false)
  const discard = () => {
    setDiscarding(false)
    writeDraft(draftKey, '')
    c.reset()
    onCancel?.()
  }
  const [linkOpen, setLinkOpen] = useState(false)
  const editor = useRef<HTMLTextAreaElement>(null)
  const { upload, dropZone } = c

  return (
    <form
      className={cn('grid gap-3', 'min-w-0')}
      aria-label={t(`composer.title.${kind}`)}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        c.submit()
      }}
    >
      {kind === 'question' && <AskAs value={c.creatorAs} onChange={c.setCreatorAs} />}

      <MessageEditor
        ref={editor}
        suggestions={suggestions}
        value={c.content.raw}
        onChange={(raw) => c.edit({ raw })}
        onSubmit={c.submit}
        label={t(`composer.textLabel.${kind}`)}
        placeholder={t(`composer.placeholder.${kind}`)}
        maxLength={MAX_POST_TEXT}
        onPaste={c.onPaste}
        autoFocus={autoFocus}
        rows={4}
      />

      <AttachmentPreview content={c.content} onRemove={(what) => c.edit({ [what]: null })} />

      {upload.progress && <UploadProgressBar progress={upload.progress} onCancel={upload.cancel} />}

      {dropZone && !c.attached && !upload.progress && (
        <DropZone kind={dropZone} onFile={(f) => void upload.start(f, dropZone)} onClose={() => c.setDropZone(null)} />
      )}

      <div className="flex flex-wrap items-center gap-2">
        {!c.attached && !upload.progress && <AttachButtons dropZone={dropZone} onDropZone={c.toggleDropZone} onLink={() => setLinkOpen(true)} />}
        <div className="ml-auto flex gap-2">
          <Button
            type="button"
            variant="outline"
            onClick={() => (c.changed ? setDiscarding(true) : discard())}
          >
            {t('composer.cancel')}
          </Button>
          <Button type="submit" disabled={!c.ready}>
            {c.posting && <Loader2 aria-hidden className="animate-spin" />}
            {c.posting ? t('composer.posting') : t(`composer.submit.${kind}`)}
          </Button>
        </div>
      </div>

      <LinkDialog
        open={linkOpen}
        onOpenChange={(o) => {
          setLinkOpen(o)
          if (!o) requestAnimationFrame(() => editor.current?.focus())
        }}
        initial={c.content.link}
        onSave={(link) => c.edit({ link })}
      />
      <ConfirmDialog
        open={discarding}
        onOpenChange={setDiscarding}
        title={t(`composer.discard.title.${kind}`)}
        description={t('composer.discard.body')}
        cancelLabel={t('composer.discard.keep')}
        confirmLabel={t('composer.discard.confirm')}
        onConfirm={discard}
      />
      <UploadWarningDialog warning={upload.warning && t(upload.warning.key, upload.warning.values)} onConfirm={upload.dismissWarning} />
    </form>
  )
}
