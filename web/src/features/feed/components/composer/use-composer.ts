import { useState, type ClipboardEvent } from 'react'
import type { Schemas } from '@/api/client'
import { useCreateThread } from '../../api/create-thread'
import { toThreadLink, type AttachedLink } from '../../api/link-preview'
import type { Thread } from '../../lib/thread-cache'
import type { UploadResult } from '@/api/upload'
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

export type CreatorAs = 'author' | 'anonymous'

export interface UseComposerOptions {
  seriesId: string
  channelId: string
  kind: 'post' | 'question'
  /** What Cancel restores. */
  initial: ComposerContent
  /** The text to start from instead of initial's: a kept draft. */
  draft?: string
  onPosted?: (thread: Thread) => void
}

/**
 * useComposer holds a composer's state and posts it: the content, who a
 * question is asked as, the open drop zone and the running upload. Submit
 * is possible only with content and while nothing is uploading or posting;
 * a post that succeeds empties the composer, one that fails keeps it.
 */
export function useComposer({ seriesId, channelId, kind, initial, draft, onPosted }: UseComposerOptions) {
  const [content, setContent] = useState<ComposerContent>(() => (draft ? { ...initial, raw: draft } : initial))
  const [creatorAs, setCreatorAs] = useState<CreatorAs>('author')
  const [dropZone, setDropZone] = useState<UploadKind | null>(null)
  const create = useCreateThread(seriesId)

  const upload = useUpload((k, r: UploadResult) => {
    setDropZone(null)
    setContent((c) =>
      k === 'image' ? { ...c, image: { url: r.url } } : { ...c, file: { id: r.id, name: r.name, url: r.url, mediaType: r.mediaType } },
    )
  })

  const attached = !!content.image || !!content.file || !!content.link
  const busy = create.isPending || !!upload.progress
  const ready = canSubmit(content) && !busy
  /** changed: Cancel would lose something. */
  const changed = content.raw !== initial.raw || content.image !== initial.image || content.file !== initial.file || content.link !== initial.link

  /** edit changes part of the content. */
  const edit = (patch: Partial<ComposerContent>) => setContent((c) => ({ ...c, ...patch }))

  const toggleDropZone = (k: UploadKind) => setDropZone((z) => (z === k ? null : k))

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

  return {
    content,
    edit,
    creatorAs,
    setCreatorAs,
    dropZone,
    setDropZone,
    toggleDropZone,
    upload,
    posting: create.isPending,
    attached,
    ready,
    changed,
    reset,
    submit,
    onPaste,
  }
}
