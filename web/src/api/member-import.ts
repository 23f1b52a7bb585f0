import { readImport, type ImportProgress, type ImportReport } from '@/lib/import-stream'
import { api, unwrap } from './client'

/** ImportTarget is where the people go: a community (and its organization) or an organization. */
export type ImportTarget = { communityId: string } | { organizationId: string }

/**
 * importMembers sends a .csv or .xlsx file (multipart field `file`) to
 * POST /communities/{id}/profiles/bulk or /organizations/{id}/profiles/bulk
 * and follows the NDJSON answer: onProgress for each progress line, then
 * the report. A file that cannot be read is refused before the stream
 * (ApiError with its code).
 */
export async function importMembers(target: ImportTarget, file: File, onProgress: (p: ImportProgress) => void, signal?: AbortSignal): Promise<ImportReport> {
  const options = {
    // The file goes as multipart/form-data (the schema types it a string, format binary).
    body: { file: file as unknown as string },
    bodySerializer: () => {
      const form = new FormData()
      form.append('file', file)
      return form
    },
    parseAs: 'stream' as const,
    headers: { Accept: 'application/x-ndjson' },
    signal,
  }
  const body = unwrap(
    'communityId' in target
      ? await api.POST('/api/communities/{communityId}/profiles/bulk', { params: { path: target }, ...options })
      : await api.POST('/api/organizations/{organizationId}/profiles/bulk', { params: { path: target }, ...options }),
  )
  if (!body) throw new Error('import: empty answer')
  return readImport(body, onProgress, signal)
}

/**
 * inviteImported mails an invitation to each of the people an import added
 * who have no account (its report's toInvite), all at once: POST
 * /communities/{id}/invitations or /organizations/{id}/invitations. It
 * resolves with how many were invited.
 */
export async function inviteImported(target: ImportTarget, profileIds: string[]) {
  const body = { profileIds }
  const r = unwrap(
    'communityId' in target
      ? await api.POST('/api/communities/{communityId}/invitations', { params: { path: target }, body })
      : await api.POST('/api/organizations/{id}/invitations', { params: { path: { id: target.organizationId } }, body }),
  )
  return r.invited
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
