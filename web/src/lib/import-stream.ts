import type { Schemas } from '@/api/client'
import { readNdjson } from '@/lib/ndjson'

// A member import (of a community or an organization) answers with NDJSON:
// progress lines {type:"progress",processed,total}, then one report line.

// The two lines a page reads, with the fields their type carries.
type ImportEvent = Schemas['MemberImportEvent']
export type ImportProgress = { type: 'progress' } & Required<Pick<ImportEvent, 'processed' | 'total'>>
export type ImportReport = { type: 'report' } & Required<Pick<ImportEvent, 'added' | 'existing' | 'skipped' | 'toInvite'>>

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

/** importLine reads one line of the answer: a progress, the report, or nothing known. */
export function importLine(v: unknown): ImportProgress | ImportReport | undefined {
  if (!isObject(v)) return undefined
  if (v.type === 'progress' && typeof v.processed === 'number' && typeof v.total === 'number') {
    return { type: 'progress', processed: v.processed, total: v.total }
  }
  if (v.type === 'report' && typeof v.added === 'number' && typeof v.existing === 'number') {
    return {
      type: 'report',
      added: v.added,
      existing: v.existing,
      skipped: Array.isArray(v.skipped) ? (v.skipped as ImportReport['skipped']) : [],
      toInvite: Array.isArray(v.toInvite) ? v.toInvite.filter((id): id is string => typeof id === 'string') : [],
    }
  }
  return undefined
}

/** progressPercent is how far the import is, 0 to 100. */
export const progressPercent = (p: Pick<ImportProgress, 'processed' | 'total'>) =>
  p.total > 0 ? Math.min(100, Math.floor((p.processed / p.total) * 100)) : 0

/**
 * readImport follows the answer, telling onProgress of each progress line,
 * and resolves with the report; an answer that ends without one rejects.
 */
export async function readImport(body: ReadableStream<Uint8Array>, onProgress: (p: ImportProgress) => void, signal?: AbortSignal): Promise<ImportReport> {
  for await (const v of readNdjson(body, { signal })) {
    const line = importLine(v)
    if (line?.type === 'progress') onProgress(line)
    else if (line?.type === 'report') return line
  }
  throw new Error('import: the answer ended without a report')
}
