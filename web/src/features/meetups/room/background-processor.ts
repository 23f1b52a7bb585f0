import type { ProcessorOptions, Track, TrackProcessor } from 'livekit-client'
import type { Results, SelfieSegmentation } from '@mediapipe/selfie_segmentation'
// MediaPipe's selfie segmentation (the landscape model, made for video
// calls) and its WebAssembly build, served by this server as the build's
// assets: no page of the app reaches another site for them. The solution
// loads its wasm loader with a <script> of its own, and fetches the rest,
// through locateFile below. `no-inline`: Vite would make the small ones
// data: URLs, which the pages' policy neither fetches nor runs.
import solutionUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.js?url&no-inline'
import graphUrl from '@mediapipe/selfie_segmentation/selfie_segmentation.binarypb?url&no-inline'
import modelUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_landscape.tflite?url&no-inline'
import simdLoaderUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.js?url&no-inline'
import simdWasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_simd_wasm_bin.wasm?url&no-inline'
import loaderUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.js?url&no-inline'
import wasmUrl from '@mediapipe/selfie_segmentation/selfie_segmentation_solution_wasm_bin.wasm?url&no-inline'
import { dataUrlBlob, PROCESSOR_NAME, type Background, type BackgroundProcessor } from './background'

const FILES: Record<string, string> = {
  'selfie_segmentation.binarypb': graphUrl,
  'selfie_segmentation_landscape.tflite': modelUrl,
  'selfie_segmentation_solution_simd_wasm_bin.js': simdLoaderUrl,
  'selfie_segmentation_solution_simd_wasm_bin.wasm': simdWasmUrl,
  'selfie_segmentation_solution_wasm_bin.js': loaderUrl,
  'selfie_segmentation_solution_wasm_bin.wasm': wasmUrl,
}
/** LANDSCAPE is MediaPipe's modelSelection of the 144×256 model (0 is the square, general one). */
const LANDSCAPE = 1

type Segmenter = {
  /** segment finds the person in input and calls draw with the mask (alpha: how sure a pixel is the person) before it resolves. */
  segment: (input: HTMLCanvasElement, draw: (mask: CanvasImageSource) => void) => Promise<void>
}

let loading: Promise<Segmenter> | undefined

/** segmenter loads the model once a page; a failed load is tried again next time. */
function segmenter() {
  loading ??= loadSegmenter().catch((e: unknown) => {
    loading = undefined
    throw e
  })
  return loading
}

function script(src: string) {
  return new Promise<void>((resolve, reject) => {
    const s = document.createElement('script')
    s.src = src
    s.onload = () => resolve()
    s.onerror = () => reject(new Error(`could not load ${src}`))
    document.head.append(s)
  })
}

async function loadSegmenter(): Promise<Segmenter> {
  // The solution is a classic script that defines window.SelfieSegmentation.
  await script(solutionUrl)
  const Solution = (window as unknown as { SelfieSegmentation: typeof SelfieSegmentation }).SelfieSegmentation
  const seg = new Solution({ locateFile: (f) => FILES[f] ?? f })
  seg.setOptions({ modelSelection: LANDSCAPE, selfieMode: false })
  let draw: ((mask: CanvasImageSource) => void) | undefined
  seg.onResults((r: Results) => draw?.(r.segmentationMask))
  await seg.initialize()
  // The first frame builds the graph (seconds on a slow machine): done now,
  // on a blank frame, rather than on the member's first one.
  const blank = document.createElement('canvas')
  blank.width = 256
  blank.height = 144
  blank.getContext('2d')!.fillRect(0, 0, 256, 144)
  await seg.send({ image: blank })
  // One frame at a time: the solution has one result listener.
  let chain: Promise<unknown> = Promise.resolve()
  return {
    segment(input, d) {
      const run = chain.then(async () => {
        draw = d
        try {
          await seg.send({ image: input })
        } finally {
          draw = undefined
        }
      })
      chain = run.catch(() => undefined)
      return run
    },
  }
}

// Chromium's insertable streams: frames come as they are captured, where a
// timer would be slowed to one a second in a hidden tab. Elsewhere the
// processor draws from LiveKit's video element and sends a canvas's stream.
type FrameReader = new (init: { track: MediaStreamTrack }) => { readable: ReadableStream<VideoFrame> }
type FrameWriter = new (init: { kind: 'video' }) => MediaStreamTrack & { writable: WritableStream<VideoFrame> }
const insertable = globalThis as { MediaStreamTrackProcessor?: FrameReader; MediaStreamTrackGenerator?: FrameWriter }

/** FALLBACK_FPS caps the frames drawn where there are no insertable streams. */
const FALLBACK_FPS = 30

/**
 * VirtualBackground is a LiveKit video processor (LocalVideoTrack.setProcessor):
 * each camera frame is segmented, and the person is drawn over the frame
 * blurred or over the chosen image; processedTrack is what LiveKit sends.
 * It keeps its output track when LiveKit restarts it on a new camera track
 * (the camera turned off and on, another camera chosen).
 */
class VirtualBackground implements TrackProcessor<Track.Kind.Video>, BackgroundProcessor {
  name = PROCESSOR_NAME
  processedTrack?: MediaStreamTrack
  private background: Background = { type: 'blur', image: null }
  private image?: ImageBitmap
  private readonly input = document.createElement('canvas')
  private readonly output = document.createElement('canvas')
  private writer?: WritableStreamDefaultWriter<VideoFrame>
  private stopInput = () => {}
  private failed = false

  constructor(private readonly seg: Segmenter) {}

  async init({ track, element }: ProcessorOptions<Track.Kind.Video>) {
    const { MediaStreamTrackProcessor: Reader, MediaStreamTrackGenerator: Writer } = insertable
    if (Reader && Writer) {
      const out = new Writer({ kind: 'video' })
      this.writer = out.writable.getWriter()
      this.processedTrack = out
    } else {
      this.processedTrack = this.output.captureStream(FALLBACK_FPS).getVideoTracks()[0]
    }
    this.start(track, element)
  }

  async restart({ track, element }: ProcessorOptions<Track.Kind.Video>) {
    this.stopInput()
    this.start(track, element)
  }

  async destroy() {
    this.stopInput()
    await this.writer?.close().catch(() => undefined)
    this.processedTrack?.stop()
    this.image?.close()
    this.image = undefined
  }

  async update(b: Background) {
    if (b.type === 'image' && b.image && b.image !== this.background.image) {
      const image = await createImageBitmap(dataUrlBlob(b.image))
      this.image?.close()
      this.image = image
    }
    this.background = b
  }

  private start(track: MediaStreamTrack, element?: HTMLMediaElement) {
    const Reader = insertable.MediaStreamTrackProcessor
    let stopped = false
    if (Reader && this.writer) {
      const reader = new Reader({ track }).readable.getReader()
      this.stopInput = () => {
        stopped = true
        void reader.cancel().catch(() => undefined)
      }
      const writer = this.writer
      void (async () => {
        while (!stopped) {
          const { value: frame, done } = await reader.read().catch(() => ({ value: undefined, done: true }))
          if (done || !frame) return
          try {
            if (await this.frame(frame, frame.displayWidth, frame.displayHeight)) {
              const out = new VideoFrame(this.output, { timestamp: frame.timestamp })
              // A writer closed meanwhile (the processor destroyed) ends the loop.
              await writer.write(out).catch(() => {
                out.close()
                stopped = true
              })
            }
          } finally {
            frame.close()
          }
        }
      })()
      return
    }
    // LiveKit attaches the camera track to element and plays it.
    const video = element as HTMLVideoElement
    let timer = 0
    const next = () => {
      if (stopped) return
      if ('requestVideoFrameCallback' in video) video.requestVideoFrameCallback(() => void tick())
      else timer = window.setTimeout(() => void tick(), 1000 / FALLBACK_FPS)
    }
    const tick = async () => {
      if (!stopped && video.readyState >= 2 && video.videoWidth > 0) await this.frame(video, video.videoWidth, video.videoHeight)
      next()
    }
    this.stopInput = () => {
      stopped = true
      clearTimeout(timer)
    }
    next()
  }

  /** frame draws one frame with its background into the output canvas; false when there is nothing to send. */
  private async frame(source: CanvasImageSource, w: number, h: number) {
    if (!w || !h) return false
    for (const c of [this.input, this.output]) {
      if (c.width !== w || c.height !== h) {
        c.width = w
        c.height = h
      }
    }
    this.input.getContext('2d')!.drawImage(source, 0, 0, w, h)
    try {
      await this.seg.segment(this.input, (mask) => this.composite(mask, w, h))
      return true
    } catch (e) {
      // A frame that could not be segmented is not sent: the frame before stays.
      if (!this.failed) console.warn('virtual background: a frame was not processed', e)
      this.failed = true
      return false
    }
  }

  private composite(mask: CanvasImageSource, w: number, h: number) {
    const o = this.output.getContext('2d')!
    o.save()
    // The mask, then the frame where it is (the person), then the background under them.
    o.globalCompositeOperation = 'copy'
    o.drawImage(mask, 0, 0, w, h)
    o.globalCompositeOperation = 'source-in'
    o.drawImage(this.input, 0, 0)
    o.globalCompositeOperation = 'destination-over'
    if (this.background.type === 'image' && this.image) drawCover(o, this.image, w, h)
    else blurred(o, this.input, w, h)
    o.restore()
  }
}

/** drawCover fills w×h with image, cropped to keep its proportions. */
function drawCover(o: CanvasRenderingContext2D, image: ImageBitmap, w: number, h: number) {
  const scale = Math.max(w / image.width, h / image.height)
  const sw = w / scale
  const sh = h / scale
  o.drawImage(image, (image.width - sw) / 2, (image.height - sh) / 2, sw, sh, 0, 0, w, h)
}

const canvasFilter = typeof CanvasRenderingContext2D !== 'undefined' && 'filter' in CanvasRenderingContext2D.prototype
let small: HTMLCanvasElement | undefined

/**
 * blurred draws frame blurred: with the canvas blur filter (drawn past the
 * edges so that they do not fade), or where there is none (Safari), scaled
 * down to a sixteenth and back up, smoothed.
 */
function blurred(o: CanvasRenderingContext2D, frame: HTMLCanvasElement, w: number, h: number) {
  const r = Math.max(8, Math.round(w / 40))
  if (canvasFilter) {
    o.filter = `blur(${r}px)`
    o.drawImage(frame, -2 * r, -2 * r, w + 4 * r, h + 4 * r)
    o.filter = 'none'
    return
  }
  small ??= document.createElement('canvas')
  small.width = Math.max(1, Math.round(w / 16))
  small.height = Math.max(1, Math.round(h / 16))
  small.getContext('2d')!.drawImage(frame, 0, 0, small.width, small.height)
  o.imageSmoothingEnabled = true
  o.imageSmoothingQuality = 'high'
  o.drawImage(small, 0, 0, w, h)
}

/** createBackgroundProcessor loads the model (once a page) and makes a processor showing b. */
export async function createBackgroundProcessor(b: Background): Promise<VirtualBackground> {
  const p = new VirtualBackground(await segmenter())
  await p.update(b)
  return p
}
