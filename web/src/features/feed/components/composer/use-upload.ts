import { useCallback, useEffect, useRef, useState } from 'react'
import { isApiError } from '@/api/client'
import { uploadFile, type UploadResult } from '@/api/upload'
import { IMAGE_MAX_BYTES } from '@/lib/forms'

export type UploadKind = 'image' | 'file'

/** SUPPORTED_IMAGE_TYPES are the pictures a post can show (and that may be pasted). */
export const SUPPORTED_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
/** The drop zones' limits (spec 001 §5 "Uploads": 3MB for images, which spec 000 §9 gives as 3,000,000 bytes; 50MB for files). */
export const MAX_UPLOAD_BYTES: Record<UploadKind, number> = { image: IMAGE_MAX_BYTES, file: 50 * 1024 * 1024 }
const MAX_LABEL: Record<UploadKind, string> = { image: '3MB', file: '50MB' }

/** Rejection is why a file cannot be uploaded: an i18n key and its values. */
export type Rejection = { key: string; values?: Record<string, string> }

/** imageTypesList names the supported image types for people ("PNG, JPEG, GIF, WEBP"). */
export const imageTypesList = () => SUPPORTED_IMAGE_TYPES.map((t) => t.slice('image/'.length).toUpperCase()).join(', ')

/**
 * checkUpload tells why a file may not be uploaded as kind, or null when it
 * may: a file with no name or no bytes (spec 001 §5: 'Invalid or missing
 * file.', 'no bytes in file'), an image of a type posts cannot show, or a
 * file over the drop zone's limit.
 */
export function checkUpload(file: File | null | undefined, kind: UploadKind): Rejection | null {
  if (!file || !file.name) return { key: 'composer.upload.invalidFile' }
  if (file.size === 0) return { key: 'composer.upload.emptyFile' }
  if (kind === 'image' && !(SUPPORTED_IMAGE_TYPES as readonly string[]).includes(file.type)) {
    return { key: 'composer.upload.imageTypes', values: { types: imageTypesList() } }
  }
  if (file.size > MAX_UPLOAD_BYTES[kind]) return { key: 'composer.upload.tooLarge', values: { name: file.name, max: MAX_LABEL[kind] } }
  return null
}

/**
 * serverRejection reads why the server refused an upload (POST /api/sas or
 * the PUT): the same rules as checkUpload, checked again from the bytes.
 */
export function serverRejection(e: unknown, kind: UploadKind, name: string): Rejection {
  if (!isApiError(e)) return { key: 'composer.upload.failed' }
  const d = e.details ?? {}
  if (e.code === 'uploadQuotaExceeded') return { key: 'composer.upload.quota' }
  if (e.code === 'forbidden') return { key: 'composer.upload.noForum' }
  if (e.code === 'uploadTooLarge') return { key: 'composer.upload.tooLarge', values: { name, max: MAX_LABEL[kind] } }
  if (e.code === 'uploadRejected') {
    if (d.supportedTypes || d.fields?.mediaType) return { key: 'composer.upload.imageTypes', values: { types: imageTypesList() } }
    if (d.fields?.name) return { key: 'composer.upload.invalidFile' }
    if (d.fields?.size || d.reason === 'no bytes in file') return { key: 'composer.upload.emptyFile' }
  }
  return { key: 'composer.upload.failed' }
}

export type UploadProgress = { kind: UploadKind; name: string; percent: number }

/**
 * useUpload uploads one file at a time (POST /api/sas, then the direct PUT
 * with progress) and reports a rejected or failed upload as a warning for
 * the dialog. An upload still running when the composer goes away is
 * aborted.
 */
export function useUpload(onUploaded: (kind: UploadKind, result: UploadResult) => void) {
  const [progress, setProgress] = useState<UploadProgress | null>(null)
  const [warning, setWarning] = useState<Rejection | null>(null)
  const abort = useRef<AbortController | null>(null)
  const done = useRef(onUploaded)
  done.current = onUploaded

  useEffect(() => () => abort.current?.abort(), [])

  const start = useCallback(async (file: File | null | undefined, kind: UploadKind) => {
    const rejection = checkUpload(file, kind)
    if (rejection) {
      setWarning(rejection)
      return
    }
    const f = file!
    abort.current?.abort()
    const ctrl = new AbortController()
    abort.current = ctrl
    setProgress({ kind, name: f.name, percent: 0 })
    try {
      const result = await uploadFile(f, kind, {
        signal: ctrl.signal,
        onProgress: (percent) => setProgress((p) => (p && !ctrl.signal.aborted ? { ...p, percent } : p)),
      })
      if (!ctrl.signal.aborted) done.current(kind, result)
    } catch (e) {
      if (ctrl.signal.aborted) return
      // Upload failures are logged (spec 001 §8) and shown as a rejected upload.
      console.error('upload failed', e)
      setWarning(serverRejection(e, kind, f.name))
    } finally {
      if (abort.current === ctrl) {
        abort.current = null
        setProgress(null)
      }
    }
  }, [])

  const cancel = useCallback(() => {
    abort.current?.abort()
    abort.current = null
    setProgress(null)
  }, [])

  return { progress, warning, start, cancel, reject: setWarning, dismissWarning: () => setWarning(null) }
}
