import { api, unwrap } from '@/api/client'
import { readImport } from '../lib/import-stream'
import type { ImportProgress, ImportReport } from './types'

/**
 * importCommunityMembers sends a .csv or .xlsx file (multipart field `file`)
 * and follows the NDJSON answer: onProgress for each progress line, then
 * the report. A file that cannot be read is refused before the stream
 * (ApiError with its code).
 */
export async function importCommunityMembers(
  communityId: string,
  file: File,
  onProgress: (p: ImportProgress) => void,
  signal?: AbortSignal,
): Promise<ImportReport> {
  const body = unwrap(
    await api.POST('/api/communities/{communityId}/profiles/bulk', {
      params: { path: { communityId } },
      // The file goes as multipart/form-data (its schema types it a string, format binary).
      body: { file: file as unknown as string },
      bodySerializer: multipart,
      parseAs: 'stream',
      headers: { Accept: 'application/x-ndjson' },
      signal,
    }),
  )
  if (!body) throw new Error('import: empty answer')
  return readImport(body, onProgress, signal)
}

function multipart(body: { file: string }) {
  const form = new FormData()
  form.append('file', body.file as unknown as File)
  return form
}

/** downloadImportTemplate saves the CSV template (GET /profiles/bulk/template.csv, which needs the bearer header). */
export async function downloadImportTemplate() {
  const blob = unwrap(await api.GET('/api/profiles/bulk/template.csv', { parseAs: 'blob' }))
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = 'members-template.csv'
  a.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}
