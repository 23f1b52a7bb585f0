import { Track, type LocalParticipant, type LocalVideoTrack } from 'livekit-client'
import { IMAGE_MAX_BYTES } from '@/lib/forms'
import { oneOf, persistedStore } from '@/lib/persisted-store'

/**
 * The virtual background (spec 002 §3 "Local settings", §5): none, a blur,
 * or an image, kept in this browser as the mirror flag is. The image is one
 * file of BACKGROUND_IMAGE_TYPES up to BACKGROUND_IMAGE_MAX_BYTES, kept as a
 * data URL. The processing itself (background-processor.ts, with the
 * person-segmentation model) loads only when a member turns it on.
 */
export type BackgroundType = 'none' | 'blur' | 'image'
export type Background = { type: BackgroundType; image: string | null }

export const BACKGROUND_KEY = 'meetups.virtualBackground'
export const BACKGROUND_IMAGE_KEY = 'meetups.virtualBackgroundImage'

/** The still images a background may be (a GIF's animation would be lost: only its first frame shows). */
export const BACKGROUND_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp']
/** The product's image limit. Kept as a data URL it takes 4/3 of that in localStorage (5 MB or so an origin). */
export const BACKGROUND_IMAGE_MAX_BYTES = IMAGE_MAX_BYTES

const typeStore = persistedStore<BackgroundType>(BACKGROUND_KEY, { fallback: 'none', parse: oneOf(['none', 'blur', 'image']) })
const imageStore = persistedStore<string | null>(BACKGROUND_IMAGE_KEY, { fallback: null, parse: (raw) => raw, format: (i) => i || null })

/** readBackground is the stored setting; an image without its data is none. */
export function readBackground(): Background {
  const type = typeStore.get()
  const image = imageStore.get()
  return { type: type === 'image' && !image ? 'none' : type, image }
}

/** saveBackground keeps b; it throws when the image does not fit in the browser's storage, the type left as it was. */
export function saveBackground(b: Background) {
  if (!imageStore.set(b.image)) throw new Error('the background image does not fit in this browser')
  typeStore.set(b.type)
}

/** backgroundFileError checks a chosen file before it is read. */
export function backgroundFileError(f: Pick<File, 'type' | 'size'>): 'imageType' | 'imageSize' | undefined {
  if (!BACKGROUND_IMAGE_TYPES.includes(f.type)) return 'imageType'
  if (f.size > BACKGROUND_IMAGE_MAX_BYTES) return 'imageSize'
  return undefined
}

/** readAsDataUrl reads a file as a data URL (spec 002 §5). */
export function readAsDataUrl(f: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader()
    r.onload = () => resolve(r.result as string)
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'))
    r.readAsDataURL(f)
  })
}

/**
 * dataUrlBlob turns a data URL back into its bytes. The image is decoded
 * from them (createImageBitmap) rather than by an <img> of the data URL,
 * which the pages' Content-Security-Policy does not allow (img-src has no
 * data:).
 */
export function dataUrlBlob(url: string): Blob {
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(url)
  if (!m) throw new TypeError('not a data URL')
  const raw = m[2] ? atob(m[3]!) : decodeURIComponent(m[3]!)
  const bytes = new Uint8Array(raw.length)
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return new Blob([bytes], { type: m[1] })
}

/** The part of LiveKit's processor a background processor adds: its effect can change in place. */
export type BackgroundProcessor = { name: string; update: (b: Background) => Promise<void> }
export const PROCESSOR_NAME = 'agora-virtual-background'

/** PLUGIN_FAILED is spec 002 §8's "We failed to initialize a plugin": the background's processor did not start. */
export const PLUGIN_FAILED = 7002

/** makeProcessor loads the processor's code and model, and makes one showing b. */
async function makeProcessor(b: Background) {
  try {
    const { createBackgroundProcessor } = await import('./background-processor')
    return await createBackgroundProcessor(b)
  } catch (e) {
    throw pluginError(e)
  }
}

const pluginError = (cause: unknown) => {
  console.warn('virtual background', cause)
  return Object.assign(new Error('the virtual background did not start', { cause }), { code: PLUGIN_FAILED })
}

const cameraTrack = (lp: LocalParticipant) => lp.getTrackPublication(Track.Source.Camera)?.videoTrack as LocalVideoTrack | undefined

// Changes to one member's camera run one after the other: a choice made
// while the model loads waits for it rather than racing it.
const queues = new WeakMap<LocalParticipant, Promise<unknown>>()
function queued<T>(lp: LocalParticipant, f: () => Promise<T>): Promise<T> {
  const next = (queues.get(lp) ?? Promise.resolve()).catch(() => undefined).then(f)
  queues.set(lp, next)
  return next
}

/** sync makes track's processor the one b asks for. */
async function sync(track: LocalVideoTrack, b: Background) {
  const current = track.getProcessor() as unknown as BackgroundProcessor | undefined
  const ours = current?.name === PROCESSOR_NAME
  if (b.type === 'none') return ours ? track.stopProcessor() : undefined
  if (ours) return current.update(b)
  const processor = await makeProcessor(b)
  await track.setProcessor(processor).catch((e: unknown) => {
    throw pluginError(e)
  })
}

/**
 * applyBackground puts b on the member's camera track, on or off (a camera
 * turned off keeps its track and its processor, which LiveKit restarts on
 * the new camera track when it is turned on again). Without a camera track
 * there is nothing to do: enableCamera applies the setting when it makes one.
 */
export function applyBackground(lp: LocalParticipant, b: Background) {
  return queued(lp, async () => {
    const track = cameraTrack(lp)
    if (track) await sync(track, b)
  })
}

/**
 * enableCamera turns the member's camera on or off with the background set
 * in this browser. A camera track is made with its processor, so that no
 * unprocessed frame is published; when the processor cannot start, the
 * camera stays off and the error is thrown (the member chose to hide their
 * background, so it is not shown without it).
 */
export function enableCamera(lp: LocalParticipant, on: boolean) {
  return queued(lp, async () => {
    if (!on) return lp.setCameraEnabled(false)
    const b = readBackground()
    const track = cameraTrack(lp)
    if (track) await sync(track, b)
    if (track || b.type === 'none') return lp.setCameraEnabled(true)
    return lp.setCameraEnabled(true, { processor: await makeProcessor(b) })
  })
}
