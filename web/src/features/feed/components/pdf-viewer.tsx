import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { ChevronLeft, ChevronRight, Maximize2, ZoomIn, ZoomOut } from 'lucide-react'
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist'
import { Button } from '@/components/ui/button'
import { PDF_ZOOM, pageInput, stepZoom } from '@/lib/media'
import { fileBytesQuery } from '../api/get-file'

/**
 * loadPdfjs loads pdf.js and its worker, both files of the build (no CDN:
 * script-src 'self' lets the page start the worker), on the first PDF a
 * member opens: it is a large library the feed does not otherwise need.
 */
async function loadPdfjs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')])
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default
  return pdfjs
}

/** loadDocument parses bytes as a PDF (a copy: pdf.js hands its input to the worker, and the cache keeps the bytes). */
async function loadDocument(bytes: Uint8Array) {
  const pdfjs = await loadPdfjs()
  // No eval (the page's policy has no 'unsafe-eval'), and nothing fetched
  // from elsewhere: fonts the file does not embed fall back to the system's.
  return pdfjs.getDocument({ data: bytes.slice(), isEvalSupported: false, useSystemFonts: true, disableAutoFetch: true })
}

export type PdfState = 'loading' | 'ready' | 'error'

/**
 * PdfViewer shows a PDF of this server's blob store, fetched at its signed
 * URL and drawn page by page on a canvas: page count, previous and next,
 * a page number input (a number from 1 to the count, else it is cleared:
 * spec 000), and zoom from fitting the width (1) to 3 in steps of 0.2.
 * The arrow and page keys turn pages and + and - zoom when the page has
 * focus; the page's text follows the canvas for screen readers. onState tells the viewer when it failed, to offer the download.
 */
export function PdfViewer({ src, name, onState }: { src: string; name: string; onState?: (s: PdfState) => void }) {
  const { t } = useTranslation()
  const bytes = useQuery(fileBytesQuery(src))
  const [doc, setDoc] = useState<PDFDocumentProxy>()
  const [failed, setFailed] = useState(false)
  const [page, setPage] = useState(1)
  const [typed, setTyped] = useState('1')
  const [zoom, setZoom] = useState<number>(PDF_ZOOM.min)
  const [width, setWidth] = useState(0)
  const [rendered, setRendered] = useState(0)
  // The page's text, for screen readers: the canvas is a picture of it.
  const [text, setText] = useState('')
  const scroller = useRef<HTMLDivElement>(null)
  const canvas = useRef<HTMLCanvasElement>(null)

  useEffect(() => {
    if (!bytes.data) return
    let task: Awaited<ReturnType<typeof loadDocument>> | undefined
    let live = true
    loadDocument(bytes.data)
      .then((tk) => {
        task = tk
        if (!live) return void tk.destroy()
        return tk.promise.then((d) => {
          if (!live) return
          // A file without pages is not one the viewer can show.
          if (d.numPages < 1) throw new Error('pdf: no pages')
          setDoc(d)
        })
      })
      .catch(() => live && setFailed(true))
    return () => {
      live = false
      setDoc(undefined)
      void task?.destroy()
    }
  }, [bytes.data])

  // The page fits the scroller's width at zoom 1.
  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const measure = () => setWidth(el.clientWidth)
    measure()
    if (typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [doc])

  useEffect(() => {
    const el = canvas.current
    if (!doc || !el || width <= 0) return
    let live = true
    let render: RenderTask | undefined
    doc
      .getPage(page)
      .then((p) => {
        if (!live) return
        const fit = (width - 16) / p.getViewport({ scale: 1 }).width
        const viewport = p.getViewport({ scale: Math.max(fit, 0.1) * zoom })
        const ratio = window.devicePixelRatio || 1
        el.width = Math.floor(viewport.width * ratio)
        el.height = Math.floor(viewport.height * ratio)
        el.style.width = `${Math.floor(viewport.width)}px`
        el.style.height = `${Math.floor(viewport.height)}px`
        render = p.render({ canvas: el, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] })
        return Promise.all([render.promise, p.getTextContent()]).then(([, content]) => {
          if (!live) return
          setText(content.items.map((i) => ('str' in i ? i.str : '')).join(' ').replace(/\s+/g, ' ').trim())
          setRendered(page)
        })
      })
      .catch((e: unknown) => {
        if (live && (e as { name?: string })?.name !== 'RenderingCancelledException') setFailed(true)
      })
    return () => {
      live = false
      render?.cancel()
    }
  }, [doc, page, zoom, width])

  const state: PdfState = failed || bytes.isError ? 'error' : doc ? 'ready' : 'loading'
  useEffect(() => onState?.(state), [state, onState])
  if (state === 'error') return null

  const count = doc?.numPages ?? 0
  const go = (n: number) => {
    const next = Math.min(Math.max(n, 1), count)
    setPage(next)
    setTyped(String(next))
  }
  const commitTyped = () => {
    const n = pageInput(typed, count)
    if (n === undefined) setTyped('')
    else go(n)
  }
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => go(page + 1),
      PageDown: () => go(page + 1),
      ArrowLeft: () => go(page - 1),
      PageUp: () => go(page - 1),
      '+': () => setZoom((z) => stepZoom(z, 1)),
      '=': () => setZoom((z) => stepZoom(z, 1)),
      '-': () => setZoom((z) => stepZoom(z, -1)),
    }
    const act = keys[e.key]
    if (!act || e.target !== e.currentTarget) return
    e.preventDefault()
    act()
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col gap-2" data-testid="pdf-viewer" data-state={state} data-rendered-page={rendered || undefined}>
      {state === 'loading' && (
        <p role="status" className="py-8 text-center text-sm text-muted-foreground" data-testid="file-viewer-loading">
          {t('feed.file.loading')}
        </p>
      )}
      {doc && (
        <div role="toolbar" aria-label={t('feed.file.pdf.toolbar')} className="flex flex-wrap items-center justify-center gap-1 text-sm">
          <Button variant="outline" size="icon" aria-label={t('feed.file.pdf.previous')} disabled={page <= 1} onClick={() => go(page - 1)}>
            <ChevronLeft aria-hidden />
          </Button>
          <input
            type="text"
            inputMode="numeric"
            aria-label={t('feed.file.pdf.pageInput')}
            className="h-9 w-14 rounded-md border bg-background px-2 text-center"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onBlur={commitTyped}
            onKeyDown={(e) => {
              if (e.key === 'Enter') commitTyped()
            }}
          />
          <span aria-live="polite" className="min-w-24 px-1 text-center" data-testid="pdf-page-status">
            {t('feed.file.pdf.page', { page, count })}
          </span>
          <Button variant="outline" size="icon" aria-label={t('feed.file.pdf.next')} disabled={page >= count} onClick={() => go(page + 1)}>
            <ChevronRight aria-hidden />
          </Button>
          <span className="mx-2 h-6 w-px bg-border" aria-hidden />
          <Button variant="outline" size="icon" aria-label={t('feed.file.pdf.zoomOut')} disabled={zoom <= PDF_ZOOM.min} onClick={() => setZoom((z) => stepZoom(z, -1))}>
            <ZoomOut aria-hidden />
          </Button>
          <span className="min-w-14 text-center tabular-nums" data-testid="pdf-zoom">
            {t('feed.file.pdf.zoom', { percent: Math.round(zoom * 100) })}
          </span>
          <Button variant="outline" size="icon" aria-label={t('feed.file.pdf.zoomIn')} disabled={zoom >= PDF_ZOOM.max} onClick={() => setZoom((z) => stepZoom(z, 1))}>
            <ZoomIn aria-hidden />
          </Button>
          <Button variant="outline" size="icon" aria-label={t('feed.file.pdf.fit')} disabled={zoom === PDF_ZOOM.min} onClick={() => setZoom(PDF_ZOOM.min)}>
            <Maximize2 aria-hidden />
          </Button>
        </div>
      )}
      <div
        ref={scroller}
        tabIndex={doc ? 0 : -1}
        onKeyDown={onKey}
        aria-label={doc ? t('feed.file.pdf.canvas', { page, count, name }) : undefined}
        role={doc ? 'region' : undefined}
        className="min-h-0 flex-1 overflow-auto rounded-md bg-muted p-2 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      >
        <canvas
          ref={canvas}
          role="img"
          aria-label={t('feed.file.pdf.canvas', { page, count, name })}
          className={doc ? 'mx-auto block bg-white shadow' : 'hidden'}
          data-testid="pdf-canvas"
        />
        {rendered === page && text && (
          <p className="sr-only" data-testid="pdf-page-text">
            {text}
          </p>
        )}
      </div>
    </div>
  )
}
