import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEventLib from '@testing-library/user-event'
import { Track, type LocalParticipant } from 'livekit-client'
import { clearToasts, Toaster } from '@/components/ui/toast'
import { BACKGROUND_IMAGE_KEY, BACKGROUND_IMAGE_MAX_BYTES, BACKGROUND_KEY, enableCamera, PROCESSOR_NAME, readBackground, type Background } from './background'
import { BackgroundSettings } from './background-settings'

// The processor needs WebGL, WebAssembly and a camera, which jsdom has not
// (the browser tests run the real one): here it is a stand-in that records
// what it was asked to show.
const made = vi.hoisted(() => ({ processors: [] as { name: string; shown: unknown; update: (b: unknown) => Promise<void> }[], fail: false }))
vi.mock('./background-processor', () => ({
  createBackgroundProcessor: vi.fn(async (b: unknown) => {
    if (made.fail) throw new Error('no WebGL')
    const p = {
      name: 'agora-virtual-background',
      shown: b,
      update: vi.fn(async (next: unknown) => {
        p.shown = next
      }),
    }
    made.processors.push(p)
    return p
  }),
}))

const userEvent = userEventLib.setup({ pointerEventsCheck: 0, applyAccept: false })

/** fakeCamera is a LocalVideoTrack as applyBackground uses it. */
function fakeCamera() {
  let processor: { name: string } | undefined
  return {
    getProcessor: () => processor,
    setProcessor: vi.fn(async (p: { name: string }) => {
      processor = p
    }),
    stopProcessor: vi.fn(async () => {
      processor = undefined
    }),
  }
}

/** fakeMember is the local participant, with a camera track or none. */
function fakeMember(camera?: ReturnType<typeof fakeCamera>) {
  return {
    getTrackPublication: (s: string) => (s === Track.Source.Camera && camera ? { videoTrack: camera } : undefined),
    setCameraEnabled: vi.fn(async () => undefined),
  }
}

const asParticipant = (m: ReturnType<typeof fakeMember>) => m as unknown as LocalParticipant

async function openSettings(member = fakeMember()) {
  const r = render(
    <>
      <BackgroundSettings participant={asParticipant(member)} />
      <Toaster />
    </>,
  )
  await userEvent.click(screen.getByRole('button', { name: 'Virtual background' }))
  const pop = await screen.findByRole('dialog', { name: 'Virtual background' })
  return { ...r, pop, member }
}

const png = (bytes = 68, type = 'image/png', name = 'beach.png') => new File([new Uint8Array(bytes)], name, { type })

beforeEach(() => {
  localStorage.clear()
  made.processors.length = 0
  made.fail = false
})
afterEach(() => {
  vi.restoreAllMocks()
  clearToasts()
})

describe('the virtual background settings (spec 002 §2, §3, §5)', () => {
  it('starts at None, offers Blur, and an image only once one is chosen', async () => {
    const { pop } = await openSettings()
    expect(within(pop).getByRole('radio', { name: 'None' })).toBeChecked()
    expect(within(pop).getByRole('radio', { name: 'Blur' })).not.toBeChecked()
    expect(within(pop).getByRole('radio', { name: 'Image' })).toBeDisabled()
    expect(within(pop).getByRole('button', { name: 'Choose an image' })).toBeInTheDocument()
  })

  it('keeps the choice in this browser, and reads it back', async () => {
    const { pop, unmount } = await openSettings()
    await userEvent.click(within(pop).getByRole('radio', { name: 'Blur' }))
    expect(localStorage.getItem(BACKGROUND_KEY)).toBe('blur')
    expect(readBackground()).toEqual({ type: 'blur', image: null })
    unmount()
    const again = await openSettings()
    expect(within(again.pop).getByRole('radio', { name: 'Blur' })).toBeChecked()
  })

  it('reads a chosen image as a data URL and keeps it with the type image', async () => {
    const { pop } = await openSettings()
    await userEvent.upload(screen.getByTestId('background-image-input'), png())
    await waitFor(() => expect(within(pop).getByRole('radio', { name: 'Image' })).toBeChecked())
    expect(localStorage.getItem(BACKGROUND_KEY)).toBe('image')
    expect(localStorage.getItem(BACKGROUND_IMAGE_KEY)).toMatch(/^data:image\/png;base64,/)
    expect(within(pop).getByRole('button', { name: 'Choose another image' })).toBeInTheDocument()
    // Blur, then the image again: the image is kept meanwhile.
    await userEvent.click(within(pop).getByRole('radio', { name: 'Blur' }))
    expect(readBackground().image).toMatch(/^data:image\/png;base64,/)
    await userEvent.click(within(pop).getByRole('radio', { name: 'Image' }))
    expect(localStorage.getItem(BACKGROUND_KEY)).toBe('image')
  })

  it.each([
    ['a GIF', png(68, 'image/gif', 'a.gif'), 'Choose a JPEG, PNG or WebP image.'],
    ['a text file', png(10, 'text/plain', 'notes.txt'), 'Choose a JPEG, PNG or WebP image.'],
    ['an image over the size', png(BACKGROUND_IMAGE_MAX_BYTES + 1), 'Choose an image of 3 MB or less.'],
  ])('refuses %s with a message, keeping the setting', async (_, file, message) => {
    const { pop } = await openSettings()
    await userEvent.upload(screen.getByTestId('background-image-input'), file)
    expect(await within(pop).findByRole('alert')).toHaveTextContent(message)
    expect(localStorage.getItem(BACKGROUND_IMAGE_KEY)).toBeNull()
    expect(within(pop).getByRole('radio', { name: 'None' })).toBeChecked()
  })

  it('accepts an image of exactly the size', async () => {
    const { pop } = await openSettings()
    await userEvent.upload(screen.getByTestId('background-image-input'), new File([new Uint8Array(BACKGROUND_IMAGE_MAX_BYTES)], 'big.jpg', { type: 'image/jpeg' }))
    await waitFor(() => expect(within(pop).getByRole('radio', { name: 'Image' })).toBeChecked())
    expect(within(pop).queryByRole('alert')).toBeNull()
  })

  it('says so when the image does not fit in the browser’s storage', async () => {
    const { pop } = await openSettings()
    const setItem = Storage.prototype.setItem
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, k: string, v: string) {
      if (k === BACKGROUND_IMAGE_KEY) throw new DOMException('full', 'QuotaExceededError')
      setItem.call(this, k, v)
    })
    await userEvent.upload(screen.getByTestId('background-image-input'), png())
    expect(await within(pop).findByRole('alert')).toHaveTextContent('This image is too large to keep in this browser.')
    expect(readBackground()).toEqual({ type: 'none', image: null })
  })

  it('applies the choice to the camera track at once: a processor for Blur, updated for an image, stopped for None', async () => {
    const camera = fakeCamera()
    const { pop } = await openSettings(fakeMember(camera))
    await userEvent.click(within(pop).getByRole('radio', { name: 'Blur' }))
    await waitFor(() => expect(camera.setProcessor).toHaveBeenCalledTimes(1))
    const p = made.processors[0]!
    expect(p.name).toBe(PROCESSOR_NAME)
    expect(p.shown).toEqual({ type: 'blur', image: null })
    await userEvent.upload(screen.getByTestId('background-image-input'), png())
    await waitFor(() => expect((p.shown as Background).type).toBe('image'))
    expect(camera.setProcessor).toHaveBeenCalledTimes(1)
    await userEvent.click(within(pop).getByRole('radio', { name: 'None' }))
    await waitFor(() => expect(camera.stopProcessor).toHaveBeenCalled())
  })

  it('falls back to None with the plugin error when the processor cannot start', async () => {
    made.fail = true
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const camera = fakeCamera()
    const { pop } = await openSettings(fakeMember(camera))
    await userEvent.click(within(pop).getByRole('radio', { name: 'Blur' }))
    expect(await screen.findByText('We failed to initialize a plugin')).toBeInTheDocument()
    await waitFor(() => expect(within(pop).getByRole('radio', { name: 'None' })).toBeChecked())
    expect(readBackground().type).toBe('none')
    expect(camera.setProcessor).not.toHaveBeenCalled()
  })
})

describe('enableCamera', () => {
  it('makes the camera with the processor of the setting kept in this browser, so no frame goes out unprocessed', async () => {
    localStorage.setItem(BACKGROUND_KEY, 'blur')
    const member = fakeMember()
    await enableCamera(asParticipant(member), true)
    expect(member.setCameraEnabled).toHaveBeenCalledWith(true, { processor: made.processors[0] })
    expect(made.processors[0]!.shown).toEqual({ type: 'blur', image: null })
  })

  it('makes a plain camera with None', async () => {
    const member = fakeMember()
    await enableCamera(asParticipant(member), true)
    expect(member.setCameraEnabled).toHaveBeenCalledWith(true)
    expect(made.processors).toHaveLength(0)
  })

  it('keeps the camera off when the processor cannot start', async () => {
    localStorage.setItem(BACKGROUND_KEY, 'blur')
    made.fail = true
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const member = fakeMember()
    await expect(enableCamera(asParticipant(member), true)).rejects.toMatchObject({ code: 7002 })
    expect(member.setCameraEnabled).not.toHaveBeenCalled()
  })

  it('turns a camera that was off back on with the processor it keeps', async () => {
    localStorage.setItem(BACKGROUND_KEY, 'blur')
    const camera = fakeCamera()
    const member = fakeMember(camera)
    await enableCamera(asParticipant(member), true)
    expect(camera.setProcessor).toHaveBeenCalledTimes(1)
    await enableCamera(asParticipant(member), false)
    await enableCamera(asParticipant(member), true)
    expect(camera.setProcessor).toHaveBeenCalledTimes(1)
    expect(member.setCameraEnabled.mock.calls).toEqual([[true], [false], [true]])
  })
})
