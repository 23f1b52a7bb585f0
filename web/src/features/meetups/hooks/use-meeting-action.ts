import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Meeting } from '../api/types'
import { storeMeeting } from '../lib/meeting-cache'

/** useMeetingAction runs a call that answers the Meet Up (register, invite, end…), and stores the answer. */
export function useMeetingAction<V>(fn: (v: V) => Promise<Meeting>, opts: { silent?: boolean } = {}) {
  const qc = useQueryClient()
  return useMutation({ mutationFn: fn, meta: { silent: !!opts.silent }, onSuccess: (m) => storeMeeting(qc, m) })
}
