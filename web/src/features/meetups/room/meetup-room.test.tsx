import { EventEmitter } from 'events'
import { useState, type ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { DisconnectReason, RoomEvent, Track, type Room } from 'livekit-client'
import { clearToasts, Toaster } from '@/components/ui/toast'
import { closeHub } from '@/lib/hub'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { MeetupPost } from '../components/meetup-post'
import { applyMeetingEvent } from '../lib/live'
import type { ChatMessage, Meeting } from '../api/types'
import { ME, SERIES, signIn } from '@/test/factories'
import { BO, CHAT_CHANNEL, chatMessage, meeting, PEOPLE, ROOM } from '../test/fixtures'
import { MeetupDock } from './meetup-dock'
import { MeetupPanel } from './meetup-panel'
import { MeetupRoomProvider } from './provider'

const userEvent = userEventLib.setup({ pointerEventsCheck: 0 })
afterEach(() => {
  closeHub()
  vi.unstubAllGlobals()
  clearToasts()
})

// The live connection as the browser makes it (a ticket, then a
// WebSocket), with a socket the test speaks through.
let sockets: FakeSocket[] = []
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  onclose: ((ev: { code: number }) => void) | null = null
  constructor(readonly url: string) {
    sockets.push(this)
  }
  send() {}
  close() {}
}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/**
 * FakeRoom stands in for LiveKit's Room: jsdom has no WebRTC. It keeps the
 * participants and tracks the screens read, and records what they send.
 */
const fakeTrack = () => Object.assign(new EventEmitter(), { attach: vi.fn(), detach: vi.fn(), attachedElements: [] as HTMLElement[] })

/** FakeParticipant emits as LiveKit's participants do: the components listen to it. */
class FakeParticipant extends EventEmitter {
  pubs = new Map<string, { source: string; isMuted: boolean; track: object }>()
  constructor(
    public identity: string,
    public name: string,
    private room?: FakeRoom,
  ) {
    super()
  }
  getTrackPublication(source: string) {
    return this.pubs.get(source)
  }
  private set(source: string, on: boolean) {
    if (on) this.pubs.set(source, { source, isMuted: false, track: fakeTrack() })
    else this.pubs.delete(source)
    this.room?.emit(on ? RoomEvent.LocalTrackPublished : RoomEvent.LocalTrackUnpublished)
    return Promise.resolve(undefined)
  }
  setMicrophoneEnabled = vi.fn((on: boolean) => this.set(Track.Source.Microphone, on))
  setCameraEnabled = vi.fn((on: boolean) => this.set(Track.Source.Camera, on))
  setScreenShareEnabled = vi.fn((on: boolean) => this.set(Track.Source.ScreenShare, on))
  publishData = vi.fn(async () => {})
}
class FakeRoom extends EventEmitter {
  localParticipant = new FakeParticipant(ME, 'Mia Me', this)
  remoteParticipants = new Map<string, FakeParticipant>()
  activeSpeakers: FakeParticipant[] = []
  canPlaybackAudio = true
  startAudio = vi.fn(async () => {
    this.canPlaybackAudio = true
    this.emit(RoomEvent.AudioPlaybackStatusChanged, true)
  })
  /** blockAudio is the browser refusing to play the room's audio without a gesture. */
  blockAudio() {
    this.canPlaybackAudio = false
    this.emit(RoomEvent.AudioPlaybackStatusChanged, false)
  }
  connect = vi.fn(async () => {})
  disconnect = vi.fn(async () => {
    this.emit(RoomEvent.Disconnected, DisconnectReason.CLIENT_INITIATED)
  })
  getActiveDevice() {
    return undefined
  }
  switchActiveDevice = vi.fn(async () => true)
  join(p: FakeParticipant) {
    this.remoteParticipants.set(p.identity, p)
    this.emit(RoomEvent.ParticipantConnected, p)
  }
  /** present is a remote participant starting (or stopping) to share their screen. */
  present(p: FakeParticipant, on: boolean) {
    if (on) p.pubs.set(Track.Source.ScreenShare, { source: Track.Source.ScreenShare, isMuted: false, track: fakeTrack() })
    else p.pubs.delete(Track.Source.ScreenShare)
    this.emit(on ? RoomEvent.TrackSubscribed : RoomEvent.TrackUnsubscribed)
  }
}

/**
 * PanelHarness stands for the right panel around the meetups tab: another
 * tab unmounts it (as Radix's tabs do), and full screen is its prop.
 */
function PanelHarness() {
  const [tab, setTab] = useState<'meetups' | 'chat'>('meetups')
  const [full, setFull] = useState(false)
  return (
    <div>
      <button type="button" onClick={() => setTab(tab === 'meetups' ? 'chat' : 'meetups')}>
        Switch tab
      </button>
      <button type="button" onClick={() => setFull(!full)}>
        Toggle full screen
      </button>
      {tab === 'meetups' && <MeetupPanel fullscreen={full} />}
    </div>
  )
}

/**
 * serve answers the screen's calls; current is the Meet Up as the server
 * reads it now (GET /meetings/{roomId}); chat is its stored chat, oldest
 * first, which a message sent joins.
 */
function serve(m: Meeting, perms: Record<string, boolean> = {}, current: () => Meeting = () => m, chat: ChatMessage[] = []) {
  const sent: { method: string; path: string; body: unknown }[] = []
  stubFetch(async (method, path, req) => {
    const body = method === 'GET' ? undefined : await req.text().then((t) => (t ? JSON.parse(t) : undefined))
    sent.push({ method, path, body })
    if (path === '/api/hub/tickets') return json(201, { ticket: 'tk', expiresOn: '2030-01-01T00:00:00.000Z' })
    if (method === 'GET' && path.startsWith(`/api/meetings/${ROOM}/chat/threads`)) return json(200, { results: chat.slice().reverse().slice(0, 20), total: chat.length })
    if (method === 'POST' && path === `/api/meetings/${ROOM}/chat/threads`) {
      const mine = chatMessage(`m${chat.length}`, (body as { raw: string }).raw, { creatorId: ME, creator: { userId: ME, firstName: 'Mia', lastName: 'Me', avatar: null }, isMine: true })
      chat.push(mine)
      return json(201, mine)
    }
    if (method === 'GET' && path === `/api/meetings/${ROOM}`) return json(200, current())
    if (path.startsWith(`/api/series/${SERIES}/members`)) return json(200, { results: PEOPLE, total: 3 })
    if (path === '/api/meetings/join-token') return json(200, { token: 'tok-main', url: 'ws://sfu.test', room: ROOM, role: 'member' })
    if (path === `/api/meetings/${ROOM}/leave-breakout-room`) return json(200, { token: 'tok-back', url: 'ws://sfu.test', room: ROOM, role: 'member' })
    if (path === `/api/live-streams/record/${ROOM}`) return json(200, { ...m, minutes: { state: 'started', content: null, updatedOn: null }, updatedOn: new Date().toISOString() })
    if (path === `/api/meetings/${ROOM}/minutes/cancel`) return json(200, { ...m, minutes: { state: 'canceled', content: null, updatedOn: null }, updatedOn: new Date(Date.now() + 1000).toISOString() })
    if (path === `/api/meetings/${ROOM}/join-breakout-room`) return json(200, { token: 'tok-b0', url: 'ws://sfu.test', room: `${ROOM}:0`, role: 'member' })
    if (path === `/api/meetings/${ROOM}/permissions`)
      return json(200, { role: 'member', canJoin: true, canEdit: false, canDelete: false, canAddMembers: false, canManageBreakouts: false, canEndRoom: false, canRecord: false, canEditMinutes: false, canSeeMinutes: true, ...perms })
    if (path === `/api/meetings/${ROOM}/end`) return json(200, { ...m, ended: true, updatedOn: new Date().toISOString() })
    return json(404, { code: 'notFound', message: path })
  })
  return sent
}

async function setUp(
  m: Meeting,
  {
    seriesId = SERIES,
    perms = {},
    extra,
    current,
    chat,
  }: { seriesId?: string; perms?: Record<string, boolean>; extra?: ReactNode; current?: () => Meeting; chat?: ChatMessage[] } = {},
) {
  sockets = []
  vi.stubGlobal('WebSocket', FakeSocket)
  const sent = serve(m, perms, current, chat)
  const rooms: FakeRoom[] = []
  const r = await renderInApp(
    <MeetupRoomProvider
      createRoom={() => {
        const room = new FakeRoom()
        rooms.push(room)
        return room as unknown as Room
      }}
    >
      <MeetupDock seriesId={seriesId} />
      <MeetupPost meeting={m} series={{ id: SERIES, name: 'Gardening', role: 'member' }} />
      {extra}
      <Toaster />
    </MeetupRoomProvider>,
  )
  signIn(r.session)
  const card = await screen.findByRole('region', { name: m.name })
  await userEvent.click(within(card).getByRole('button', { name: 'Join' }))
  const stage = await screen.findByRole('region', { name: `Meet Up ${m.name}` })
  return { sent, rooms, card, stage, qc: r.queryClient }
}

describe('the Meet Up screen (spec 002 §2, §4)', () => {
  it('joins with a token of POST /meetings/join-token, muted, shows the peers, and the post says "In progress"', async () => {
    const m = meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5)
    const { sent, rooms, card, stage } = await setUp(m)
    expect(sent.find((s) => s.path === '/api/meetings/join-token')?.body).toEqual({ roomId: ROOM, userId: ME })
    expect(rooms[0]!.connect).toHaveBeenCalledWith('ws://sfu.test', 'tok-main')
    act(() => rooms[0]!.join(new FakeParticipant(BO, 'Bo Brown')))
    const peers = await within(stage).findAllByTestId('peer')
    expect(peers.map((p) => p.getAttribute('aria-label'))).toEqual(['Mia Me (you)', 'Bo Brown'])
    // Members join with the microphone and the camera off.
    expect(within(stage).getByRole('button', { name: 'Turn the microphone on' })).toHaveAttribute('aria-pressed', 'false')
    expect(within(stage).getByRole('button', { name: 'Turn the camera on' })).toBeInTheDocument()
    expect(rooms[0]!.localParticipant.setMicrophoneEnabled).not.toHaveBeenCalled()
    await userEvent.click(within(stage).getByRole('button', { name: 'Turn the microphone on' }))
    expect(await within(stage).findByRole('button', { name: 'Turn the microphone off' })).toBeInTheDocument()
    expect(within(card).getByTestId('in-progress')).toHaveTextContent('In progress')
    // The creator's Edit and Delete are not offered to someone in the Meet Up; here the member has none anyway.
    expect(within(card).queryByRole('button', { name: 'Join' })).toBeNull()
  })

  it('lays the tiles out to fill the stage: 16:9, as large as its area allows', async () => {
    // jsdom lays nothing out: the stage's area measures 1000×450, as a browser would give it.
    const rect = HTMLElement.prototype.getBoundingClientRect
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return this.dataset.testid === 'stage-area' ? DOMRect.fromRect({ width: 1000, height: 450 }) : rect.call(this)
    })
    try {
      const { rooms, stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5))
      const size = (el: HTMLElement) => [el.style.width, el.style.height]
      // Alone: one tile, as high as the area.
      expect(within(stage).getAllByTestId('peer').map(size)).toEqual([['800px', '450px']])
      act(() => rooms[0]!.join(new FakeParticipant(BO, 'Bo Brown')))
      // Two: side by side, each half the width.
      await waitFor(() => expect(within(stage).getAllByTestId('peer').map(size)).toEqual([['496px', '279px'], ['496px', '279px']]))
      expect(within(stage).getByTestId('stage-area')).toHaveAttribute('data-layout', 'gallery')
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('gives a shared screen the large area, the participants in a strip, and goes back to the gallery when the sharing ends', async () => {
    const { rooms, stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5))
    const bo = new FakeParticipant(BO, 'Bo Brown')
    act(() => rooms[0]!.join(bo))
    act(() => rooms[0]!.present(bo, true))
    const area = within(stage).getByTestId('stage-area')
    await waitFor(() => expect(area).toHaveAttribute('data-layout', 'share'))
    expect(within(within(stage).getByTestId('stage-main')).getByRole('figure', { name: 'Bo Brown is presenting' })).toBeInTheDocument()
    expect(within(within(stage).getByRole('list', { name: 'Participants' })).getAllByTestId('peer').map((p) => p.getAttribute('aria-label'))).toEqual(['Mia Me (you)', 'Bo Brown'])
    // While a screen is shared it has the large area: no layout to choose.
    expect(within(stage).queryByRole('button', { name: 'Speaker view' })).toBeNull()
    act(() => rooms[0]!.present(bo, false))
    await waitFor(() => expect(area).toHaveAttribute('data-layout', 'gallery'))
    expect(within(stage).queryByTestId('stage-main')).toBeNull()
  })

  it('shows the speaker large, the others in a strip, in the speaker layout the member chooses, and keeps the choice', async () => {
    const { rooms, stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5))
    const bo = new FakeParticipant(BO, 'Bo Brown')
    const ada = new FakeParticipant('ada', 'Ada Lovelace')
    act(() => rooms[0]!.join(bo))
    act(() => rooms[0]!.join(ada))
    const view = await within(stage).findByRole('button', { name: 'Speaker view' })
    expect(view).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(view)
    expect(view).toHaveAttribute('aria-pressed', 'true')
    expect(localStorage.getItem('meetups.layout')).toBe('speaker')
    const main = () => within(stage).getByTestId('stage-main')
    // Nobody has spoken: the first other participant.
    expect(within(main()).getByTestId('peer')).toHaveAccessibleName('Bo Brown')
    // Ada speaks: she takes the large area, and keeps it when she stops.
    act(() => {
      rooms[0]!.activeSpeakers = [ada]
      rooms[0]!.emit(RoomEvent.ActiveSpeakersChanged, [ada])
    })
    await waitFor(() => expect(within(main()).getByTestId('peer')).toHaveAccessibleName('Ada Lovelace'))
    act(() => {
      rooms[0]!.activeSpeakers = []
      rooms[0]!.emit(RoomEvent.ActiveSpeakersChanged, [])
    })
    expect(within(main()).getByTestId('peer')).toHaveAccessibleName('Ada Lovelace')
    expect(within(within(stage).getByRole('list', { name: 'Participants' })).getAllByTestId('peer').map((p) => p.getAttribute('aria-label'))).toEqual(['Mia Me (you)', 'Bo Brown'])
    await userEvent.click(view)
    expect(within(stage).getByTestId('stage-area')).toHaveAttribute('data-layout', 'gallery')
    localStorage.removeItem('meetups.layout')
  })

  it('shows the screen share help 250 ms after someone presents while the meetups tab shows, not full screen, and takes it away otherwise', async () => {
    const { rooms } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5), { extra: <PanelHarness /> })
    const bo = new FakeParticipant(BO, 'Bo Brown')
    act(() => rooms[0]!.join(bo))
    const help = 'Bo Brown is presenting. Choose Full screen to see the shared screen.'
    act(() => rooms[0]!.present(bo, true))
    expect(screen.queryByText(help)).toBeNull()
    expect(await screen.findByText(help)).toBeInTheDocument()
    // Full screen shows the presentation, and the help goes.
    await userEvent.click(screen.getByRole('button', { name: 'Toggle full screen' }))
    await waitFor(() => expect(screen.queryByText(help)).toBeNull())
    expect(within(screen.getByTestId('meetup-presentation')).getByText('Bo Brown is presenting')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Toggle full screen' }))
    expect(await screen.findByText(help)).toBeInTheDocument()
    // Another tab takes it away; back on the meetups tab it shows again.
    await userEvent.click(screen.getByRole('button', { name: 'Switch tab' }))
    await waitFor(() => expect(screen.queryByText(help)).toBeNull())
    await userEvent.click(screen.getByRole('button', { name: 'Switch tab' }))
    expect(await screen.findByText(help)).toBeInTheDocument()
    // The presenting ends: it goes.
    act(() => rooms[0]!.present(bo, false))
    await waitFor(() => expect(screen.queryByText(help)).toBeNull())
  })

  it('shows the screen share help when the member presents too', async () => {
    const { stage } = await setUp(meeting({ invitees: { [ME]: 'yes' } }, 5), { extra: <PanelHarness /> })
    await userEvent.click(within(stage).getByRole('button', { name: 'Share the screen' }))
    expect(await screen.findByText('You are presenting. Choose Full screen to see what the others see.')).toBeInTheDocument()
  })

  it('shows no screen share help without the meetups tab', async () => {
    const { stage } = await setUp(meeting({ invitees: { [ME]: 'yes' } }, 5))
    await userEvent.click(within(stage).getByRole('button', { name: 'Share the screen' }))
    await within(stage).findByRole('button', { name: 'Stop sharing the screen' })
    // Well past the help's 250 ms.
    await new Promise((r) => setTimeout(r, 500))
    expect(screen.queryByTestId('toast')).toBeNull()
  })

  it('asks for a click when the browser blocks the room’s audio, and starts it with room.startAudio()', async () => {
    const { rooms } = await setUp(meeting({ invitees: { [ME]: 'yes' } }, 5))
    act(() => rooms[0]!.blockAudio())
    const dialog = await screen.findByRole('dialog', { name: 'Turn on the Meet Up’s sound' })
    expect(dialog).toHaveAccessibleDescription('Your browser is holding back the sound of the others in this Meet Up until you allow it.')
    // One way out: its confirm button; no cancel, no close, and Escape keeps it.
    expect(within(dialog).getAllByRole('button').map((b) => b.textContent)).toEqual(['Turn on sound'])
    await userEvent.keyboard('{Escape}')
    expect(screen.getByRole('dialog', { name: 'Turn on the Meet Up’s sound' })).toBeInTheDocument()
    await userEvent.click(within(dialog).getByRole('button', { name: 'Turn on sound' }))
    expect(rooms[0]!.startAudio).toHaveBeenCalledOnce()
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Turn on the Meet Up’s sound' })).toBeNull())
  })

  it('reads the stored chat when it opens, and sends through the API', async () => {
    const chat = [chatMessage('b1', 'Said before you came')]
    const { sent, stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5), { chat })
    await userEvent.click(within(stage).getByRole('button', { name: 'Meet Up chat' }))
    const box = await screen.findByTestId('meetup-chat')
    expect(await within(box).findByText('Said before you came')).toBeInTheDocument()
    expect(within(box).getByText('Bo Brown')).toBeInTheDocument()
    expect(sent.some((s) => s.method === 'GET' && s.path === `/api/meetings/${ROOM}/chat/threads?pageSize=20`)).toBe(true)
    await userEvent.type(within(box).getByLabelText('Message'), 'Hello all{Enter}')
    expect(await within(box).findByText('Hello all')).toBeInTheDocument()
    expect(sent.find((s) => s.method === 'POST' && s.path === `/api/meetings/${ROOM}/chat/threads`)?.body).toEqual({ raw: 'Hello all' })
    expect(within(box).getAllByTestId('chat-message').map((li) => li.textContent)).toEqual([expect.stringContaining('Said before you came'), expect.stringContaining('Hello all')])
  })

  it('reads the chat again on a rejoin, with what was said while the member was away', async () => {
    const chat = [chatMessage('b1', 'Before you left')]
    const { card, stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5), { chat })
    await userEvent.click(within(stage).getByRole('button', { name: 'Meet Up chat' }))
    expect(await within(await screen.findByTestId('meetup-chat')).findByText('Before you left')).toBeInTheDocument()
    await userEvent.click(within(stage).getByRole('button', { name: 'Leave' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Leave this Meet Up?' })).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(screen.queryByTestId('meetup-stage')).toBeNull())
    chat.push(chatMessage('b2', 'While you were away'))
    await userEvent.click(within(card).getByRole('button', { name: 'Join' }))
    const again = await screen.findByRole('region', { name: `Meet Up ${meeting().name}` })
    await userEvent.click(within(again).getByRole('button', { name: 'Meet Up chat' }))
    const box = await screen.findByTestId('meetup-chat')
    expect(await within(box).findByText('While you were away')).toBeInTheDocument()
    expect(within(box).getByText('Before you left')).toBeInTheDocument()
  })

  it('shows a dot on the chat button when another’s message comes while the chat is closed, and none for one’s own', async () => {
    const { stage } = await setUp(meeting({ invitees: { [ME]: 'yes', [BO]: 'yes' } }, 5))
    await waitFor(() => expect(sockets).toHaveLength(1))
    const hub = sockets[0]!
    const deliver = (msg: ChatMessage) =>
      act(() => hub.onmessage?.({ data: JSON.stringify({ type: 'api:messages:broadcast', contextKey: `channel:${CHAT_CHANNEL}`, event: 'thread.created', data: { payload: msg } }) }))
    act(() => hub.onopen?.({}))
    deliver(chatMessage('m1', 'My own', { creatorId: ME, isMine: true }))
    expect(within(stage).queryByTestId('chat-unread')).toBeNull()
    // Another Meet Up's message is not this chat's.
    deliver(chatMessage('x1', 'Elsewhere', { roomId: '0190a000-0000-7000-8000-0000000000e2' }))
    expect(within(stage).queryByTestId('chat-unread')).toBeNull()
    deliver(chatMessage('b2', 'Are you there?'))
    expect(await within(stage).findByTestId('chat-unread')).toBeInTheDocument()
    await userEvent.click(within(stage).getByRole('button', { name: 'Meet Up chat, new messages' }))
    await screen.findByTestId('meetup-chat')
    expect(within(stage).queryByTestId('chat-unread')).toBeNull()
    // While it is open, a message shows in it and makes no dot.
    deliver(chatMessage('b3', 'Yes, here'))
    expect(await within(screen.getByTestId('meetup-chat')).findByText('Yes, here')).toBeInTheDocument()
    expect(within(stage).queryByTestId('chat-unread')).toBeNull()
  })

  it('moves to a breakout room with the token of join-breakout-room', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' }, breakouts: { open: true, rooms: { Roses: 0 } } }, 5)
    const { sent, rooms, stage } = await setUp(m)
    await userEvent.click(within(stage).getByRole('button', { name: 'Breakout rooms' }))
    const dialog = await screen.findByRole('dialog', { name: 'Breakout rooms' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Join Roses' }))
    await waitFor(() => expect(rooms).toHaveLength(2))
    expect(sent.find((s) => s.path.endsWith('/join-breakout-room'))?.body).toEqual({ roomName: 'Roses', peerId: ME })
    expect(rooms[0]!.disconnect).toHaveBeenCalled()
    expect(rooms[1]!.connect).toHaveBeenCalledWith('ws://sfu.test', 'tok-b0')
    expect(await screen.findByTestId('breakout-name')).toHaveTextContent('You are in Roses')
  })

  it('prompts a member in a breakout room when the breakouts close, and takes them back to the main room', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' }, breakouts: { open: true, rooms: { Roses: 0 } } }, 5)
    const { sent, rooms, stage, qc } = await setUp(m)
    await userEvent.click(within(stage).getByRole('button', { name: 'Breakout rooms' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Breakout rooms' })).getByRole('button', { name: 'Join Roses' }))
    await screen.findByTestId('breakout-name')
    // meeting.breakouts.updated {open: false}, as the live events store it.
    act(() => qc.setQueryData<Meeting>(['meetings', ROOM], (x) => x && { ...x, breakouts: { ...x.breakouts, open: false } }))
    const prompt = await screen.findByRole('dialog', { name: 'Breakout rooms are closed' })
    expect(within(prompt).queryByRole('button', { name: 'Close' })).toBeNull()
    await userEvent.click(within(prompt).getByRole('button', { name: 'Back to the main room' }))
    await waitFor(() => expect(rooms).toHaveLength(3))
    expect(sent.find((s) => s.path.endsWith('/leave-breakout-room'))?.body).toEqual({ peerId: ME })
    expect(rooms[2]!.connect).toHaveBeenCalledWith('ws://sfu.test', 'tok-back')
    await waitFor(() => expect(screen.queryByTestId('breakout-name')).toBeNull())
    expect(screen.queryByRole('dialog', { name: 'Breakout rooms are closed' })).toBeNull()
  })

  it('prompts a member in the main room when the breakouts open, and joins the room chosen from the prompt', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' }, breakouts: { open: false, rooms: { Roses: 0, Tulips: 1 } } }, 5)
    const { sent, rooms, stage, qc } = await setUp(m)
    await within(stage).findByRole('button', { name: 'Leave' })
    // meeting.breakouts.updated {open: true}, as the live events store it.
    act(() => qc.setQueryData<Meeting>(['meetings', ROOM], (x) => x && { ...x, breakouts: { ...x.breakouts, open: true } }))
    const prompt = await screen.findByRole('dialog', { name: 'Breakout rooms are open' })
    expect(within(prompt).getAllByRole('button').map((b) => b.textContent)).toEqual(['Join Roses', 'Join Tulips', 'Stay in the main room', 'Close'])
    await userEvent.click(within(prompt).getByRole('button', { name: 'Join Roses' }))
    await waitFor(() => expect(rooms).toHaveLength(2))
    expect(sent.find((s) => s.path.endsWith('/join-breakout-room'))?.body).toEqual({ roomName: 'Roses', peerId: ME })
    expect(await screen.findByTestId('breakout-name')).toHaveTextContent('You are in Roses')
    expect(screen.queryByRole('dialog', { name: 'Breakout rooms are open' })).toBeNull()
  })

  it('lets a member stay in the main room, and does not prompt the one who runs the breakouts', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' }, breakouts: { open: false, rooms: { Roses: 0 } } }, 5)
    const { rooms, stage, qc } = await setUp(m)
    await within(stage).findByRole('button', { name: 'Leave' })
    act(() => qc.setQueryData<Meeting>(['meetings', ROOM], (x) => x && { ...x, breakouts: { ...x.breakouts, open: true } }))
    const prompt = await screen.findByRole('dialog', { name: 'Breakout rooms are open' })
    await userEvent.click(within(prompt).getByRole('button', { name: 'Stay in the main room' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Breakout rooms are open' })).toBeNull())
    expect(rooms).toHaveLength(1)
    expect(screen.queryByTestId('breakout-name')).toBeNull()
  })

  it('does not prompt a moderator, who opened the breakouts', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' }, roles: { [ME]: 'moderator' }, breakouts: { open: false, rooms: { Roses: 0 } } }, 5)
    const { stage, qc } = await setUp(m, { perms: { canManageBreakouts: true } })
    await within(stage).findByRole('button', { name: 'Breakout rooms' })
    act(() => qc.setQueryData<Meeting>(['meetings', ROOM], (x) => x && { ...x, breakouts: { ...x.breakouts, open: true } }))
    await new Promise((r) => setTimeout(r, 200))
    expect(screen.queryByRole('dialog', { name: 'Breakout rooms are open' })).toBeNull()
  })

  it('turns AI notes on for one who may record, and off after a confirmation', async () => {
    const { sent, stage } = await setUp(meeting({ invitees: { [ME]: 'yes' }, roles: { [ME]: 'moderator' } }, 5), { perms: { canRecord: true } })
    await userEvent.click(await within(stage).findByRole('button', { name: 'Turn on AI notes' }))
    expect(await within(stage).findByRole('button', { name: 'Turn off AI notes' })).toHaveAttribute('aria-pressed', 'true')
    expect(sent.some((s) => s.method === 'POST' && s.path === `/api/live-streams/record/${ROOM}`)).toBe(true)
    // The host is told as everyone is.
    expect(within(stage).getByTestId('ai-notes-indicator')).toHaveTextContent('AI notes on')
    expect(await screen.findByText('AI notes are on.')).toBeInTheDocument()
    await userEvent.click(within(stage).getByRole('button', { name: 'Turn off AI notes' }))
    const confirm = await screen.findByRole('dialog', { name: 'Turn off AI notes?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Turn off' }))
    expect(await within(stage).findByRole('button', { name: 'Turn on AI notes' })).toBeInTheDocument()
    expect(sent.some((s) => s.method === 'POST' && s.path === `/api/meetings/${ROOM}/minutes/cancel`)).toBe(true)
  })

  it('shows every participant that AI notes are on, with a notice, as soon as they are, and takes it away when they go off', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' } }, 5)
    let now = m
    const { stage, qc } = await setUp(m, { current: () => now })
    await within(stage).findByRole('button', { name: 'Leave' })
    expect(within(stage).queryByTestId('ai-notes-indicator')).toBeNull()
    expect(screen.queryByText('AI notes are on.')).toBeNull()
    // The host turns them on: meeting.minutes.updated reaches this member, who may not record.
    now = { ...m, minutes: { ...m.minutes, state: 'started' }, updatedOn: new Date().toISOString() }
    act(() => applyMeetingEvent(qc, { kind: 'minutes', roomId: ROOM, postId: m.postId, state: 'started' }))
    expect(await within(stage).findByTestId('ai-notes-indicator')).toHaveTextContent('AI notes on')
    expect(await screen.findByText('AI notes are on.')).toBeInTheDocument()
    expect(screen.getByText('What is said in this Meet Up is transcribed for its AI notes.')).toBeInTheDocument()
    expect(within(stage).queryByRole('button', { name: /AI notes/ })).toBeNull()
    // Off again: the indicator goes.
    now = { ...m, minutes: { ...m.minutes, state: 'canceled' }, updatedOn: new Date(Date.now() + 1000).toISOString() }
    act(() => applyMeetingEvent(qc, { kind: 'minutes', roomId: ROOM, postId: m.postId, state: 'canceled' }))
    await waitFor(() => expect(within(stage).queryByTestId('ai-notes-indicator')).toBeNull())
  })

  it('tells one who joins after AI notes came on, from the Meet Up read again on join, and shows none in a breakout room', async () => {
    // The post was read before the notes came on; the server has them on.
    const m = meeting({ invitees: { [ME]: 'yes' }, breakouts: { open: true, rooms: { Roses: 0 } } }, 5)
    const on = { ...m, minutes: { ...m.minutes, state: 'started' as const }, updatedOn: new Date().toISOString() }
    const { sent, stage } = await setUp(m, { current: () => on })
    expect(await within(stage).findByTestId('ai-notes-indicator')).toHaveTextContent('AI notes on')
    expect(await screen.findByText('AI notes are on.')).toBeInTheDocument()
    expect(sent.some((s) => s.method === 'GET' && s.path === `/api/meetings/${ROOM}`)).toBe(true)
    // The recorder listens to the main room only.
    await userEvent.click(within(stage).getByRole('button', { name: 'Breakout rooms' }))
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Breakout rooms' })).getByRole('button', { name: 'Join Roses' }))
    await screen.findByTestId('breakout-name')
    expect(screen.queryByTestId('ai-notes-indicator')).toBeNull()
  })

  it('offers AI notes on a mobile screen to the creator, as an icon', async () => {
    vi.stubGlobal('innerWidth', 500)
    const { stage } = await setUp(meeting({ creatorId: ME, invitees: {}, roles: {} }, 5), { perms: { canRecord: true } })
    const notes = await within(stage).findByRole('button', { name: 'Turn on AI notes' })
    expect(notes).toHaveTextContent(/^$/)
  })

  it('offers no AI notes on a mobile screen to a moderator who did not create the Meet Up', async () => {
    vi.stubGlobal('innerWidth', 500)
    const { stage } = await setUp(meeting({ invitees: { [ME]: 'yes' }, roles: { [ME]: 'moderator' } }, 5), { perms: { canRecord: true, canEndRoom: true } })
    // The permissions are read: End for all shows.
    await within(stage).findByRole('button', { name: 'End for all' })
    expect(within(stage).queryByRole('button', { name: /AI notes/ })).toBeNull()
  })

  it('offers no AI notes to a Meet Up of 120 minutes, and warns 5 minutes before the end', async () => {
    const { stage } = await setUp(meeting({ invitees: { [ME]: 'yes' }, duration: 120 }, -116), { perms: { canRecord: true } })
    expect(within(stage).getByTestId('ending-soon')).toHaveTextContent('This Meet Up ends in 5 minutes.')
    await within(stage).findByRole('button', { name: 'Leave' })
    expect(within(stage).queryByRole('button', { name: /AI notes/ })).toBeNull()
  })

  it('ends the Meet Up for all after a confirmation, and shows the ended dialog when the room is deleted', async () => {
    const { sent, rooms, stage } = await setUp(meeting({ invitees: { [ME]: 'yes' }, roles: { [ME]: 'moderator' } }, 5), { perms: { canEndRoom: true } })
    await userEvent.click(await within(stage).findByRole('button', { name: 'End for all' }))
    const confirm = await screen.findByRole('dialog', { name: 'End this Meet Up for everyone?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'End for all' }))
    await waitFor(() => expect(sent.some((s) => s.method === 'POST' && s.path === `/api/meetings/${ROOM}/end`)).toBe(true))
    act(() => void rooms[0]!.emit(RoomEvent.Disconnected, DisconnectReason.ROOM_DELETED))
    expect(await screen.findByRole('dialog', { name: 'The Meet Up has ended' })).toBeInTheDocument()
    expect(screen.queryByTestId('meetup-stage')).toBeNull()
  })

  it('says so when the member joins from another device, which closes the Meet Up here', async () => {
    const { rooms } = await setUp(meeting({ invitees: { [ME]: 'yes' } }, 5))
    act(() => void rooms[0]!.emit(RoomEvent.Disconnected, DisconnectReason.DUPLICATE_IDENTITY))
    expect(await screen.findByText('You joined this Meet Up from another device, so it was closed here.')).toBeInTheDocument()
    expect(screen.queryByTestId('meetup-stage')).toBeNull()
    expect(screen.queryByRole('dialog', { name: 'The Meet Up has ended' })).toBeNull()
  })

  it('leaves after a confirmation', async () => {
    const { rooms, stage } = await setUp(meeting({ invitees: { [ME]: 'yes' } }, 5))
    await userEvent.click(within(stage).getByRole('button', { name: 'Leave' }))
    const confirm = await screen.findByRole('dialog', { name: 'Leave this Meet Up?' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Leave' }))
    await waitFor(() => expect(screen.queryByTestId('meetup-stage')).toBeNull())
    expect(rooms[0]!.disconnect).toHaveBeenCalled()
    expect(screen.queryByRole('dialog', { name: 'The Meet Up has ended' })).toBeNull()
  })

  it('docks in the mini bar away from its forum, with a fullscreen button, still connected, and says there when AI notes are on', async () => {
    const m = meeting({ invitees: { [ME]: 'yes' } }, 5)
    let now = m
    serve(m, {}, () => now)
    const rooms: FakeRoom[] = []
    const r = await renderInApp(
      <MeetupRoomProvider createRoom={() => (rooms.push(new FakeRoom()), rooms.at(-1) as unknown as Room)}>
        <MeetupDock seriesId="another-forum" />
        <MeetupPost meeting={m} series={{ id: SERIES, name: 'Gardening', role: 'member' }} />
      </MeetupRoomProvider>,
    )
    signIn(r.session)
    await userEvent.click(within(await screen.findByRole('region', { name: m.name })).getByRole('button', { name: 'Join' }))
    const bar = await screen.findByTestId('meetup-minibar')
    expect(bar).toHaveAccessibleName('Meet Up in progress: Pruning roses')
    expect(within(bar).queryByTestId('ai-notes-indicator')).toBeNull()
    now = { ...m, minutes: { ...m.minutes, state: 'started' }, updatedOn: new Date().toISOString() }
    act(() => applyMeetingEvent(r.queryClient, { kind: 'minutes', roomId: ROOM, postId: m.postId, state: 'started' }))
    expect(await within(bar).findByTestId('ai-notes-indicator')).toHaveTextContent('AI notes on')
    await userEvent.click(within(bar).getByRole('button', { name: 'Open the Meet Up' }))
    expect(await screen.findByTestId('meetup-fullscreen')).toBeInTheDocument()
    expect(rooms[0]!.disconnect).not.toHaveBeenCalled()
  })
})
