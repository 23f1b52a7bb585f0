import { useQueryClient } from '@tanstack/react-query'
import { useHubEvents, type HubMessage } from '@/lib/hub'
import { meetingKeys } from '../api/keys'
import { applyMeetingEvent, readMeetingEvent, type MeetingEvent } from '../lib/live'

/**
 * useMeetingsLive applies every Meet Up event the member receives (the
 * server sends only those of Meet Ups they may read), wherever they are;
 * onEvent also hears each one (the Meet Up screen's breakout prompt). Meet Ups
 * read before a connection went live are read again (useHubEvents).
 */
export function useMeetingsLive(onEvent?: (e: MeetingEvent, m: HubMessage) => void) {
  const qc = useQueryClient()
  useHubEvents(
    '*',
    (m) => {
      const e = readMeetingEvent(m)
      if (!e) return
      applyMeetingEvent(qc, e)
      onEvent?.(e, m)
    },
    (missed) => void qc.invalidateQueries({ queryKey: meetingKeys.all, predicate: missed }),
  )
}
