import { describe, expect, it } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { renderInApp, stubFetch } from '@/test/utils'
import { PostFile } from './attachments'

const blob = (name: string) => `${window.location.origin}/api/blobs/0b7c2f4e-2d1a-4c55-9a64-3f1f0b6a9e10/${encodeURIComponent(name)}?exp=1&sig=x`

async function openViewer(name: string, mediaType: string) {
  await renderInApp(<PostFile file={{ name, url: blob(name), mediaType }} />)
  await userEvent.click(screen.getByRole('button', { name: 'View' }))
  return screen.findByRole('dialog', { name: `File: ${name}` })
}

// pdf.js itself does not run here (jsdom has no DOMMatrix, Node 20 no
// Promise.withResolvers): a PDF drawn, paged and zoomed, and one pdf.js
// cannot read, are the browser test's (e2e/tests/feed.mjs).
describe('PostFile viewer', () => {
  it('plays audio in <audio controls> from the signed URL, with the download beside it', async () => {
    stubFetch(() => new Response(null, { status: 500 }))
    const viewer = await openViewer('talk.wav', 'audio/wave')
    const audio = within(viewer).getByLabelText('Audio: talk.wav') as HTMLAudioElement
    expect(audio.tagName).toBe('AUDIO')
    expect(audio.controls).toBe(true)
    expect(audio.src).toBe(blob('talk.wav'))
    expect(within(viewer).getByRole('link', { name: 'Download' })).toHaveAttribute('href', blob('talk.wav'))
  })

  it('plays video in <video controls>; one that cannot be decoded is offered as a download', async () => {
    stubFetch(() => new Response(null, { status: 500 }))
    const viewer = await openViewer('clip.webm', 'video/webm')
    const video = within(viewer).getByLabelText('Video: clip.webm') as HTMLVideoElement
    expect(video.tagName).toBe('VIDEO')
    expect(video.controls).toBe(true)
    expect(video.src).toBe(blob('clip.webm'))
    fireEvent.error(video)
    const error = await within(viewer).findByRole('alert')
    expect(error).toHaveTextContent("This file can't be shown here")
    expect(within(error).getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'clip.webm')
  })

  it('shows a loading state while the PDF is fetched', async () => {
    const calls = stubFetch(() => new Promise<Response>(() => {}))
    const viewer = await openViewer('plan.pdf', 'application/pdf')
    expect(within(viewer).getByRole('status')).toHaveTextContent('Loading the file…')
    await waitFor(() => expect(calls.map((r) => r.url)).toContain(blob('plan.pdf')))
  })

  it('offers the download when the server refuses the PDF', async () => {
    stubFetch(() => new Response(JSON.stringify({ code: 'blobSignatureExpired' }), { status: 403 }))
    const viewer = await openViewer('plan.pdf', 'application/pdf')
    const error = await within(viewer).findByRole('alert')
    expect(error).toHaveTextContent("This file can't be shown here")
    expect(within(error).getByRole('link', { name: 'Download' })).toHaveAttribute('href', blob('plan.pdf'))
    expect(within(viewer).queryByRole('toolbar')).toBeNull()
  })

  it('names an office document with its size and offers only its download', async () => {
    const calls = stubFetch((method) => new Response(null, { status: 200, headers: { 'Content-Length': method === 'HEAD' ? '12698' : '0' } }))
    await renderInApp(<PostFile file={{ name: 'Q3 plan.docx', url: blob('Q3 plan.docx'), mediaType: 'application/zip' }} />)
    const card = screen.getByTestId('post-file')
    expect(card).toHaveTextContent('Q3 plan.docx')
    await waitFor(() => expect(within(card).getByTestId('post-file-meta')).toHaveTextContent('Word processor document · 12.4 KB'))
    expect(within(card).queryByRole('button', { name: 'View' })).toBeNull()
    expect(within(card).getByRole('link', { name: 'Download' })).toHaveAttribute('download', 'Q3 plan.docx')
    expect(calls.map((r) => r.method)).toEqual(['HEAD'])
  })

  it('never offers to view a file that is not on this server', async () => {
    stubFetch(() => new Response(null, { status: 500 }))
    await renderInApp(<PostFile file={{ name: 'x.pdf', url: 'https://elsewhere.example/api/blobs/1/x.pdf', mediaType: 'application/pdf' }} />)
    expect(screen.queryByRole('button', { name: 'View' })).toBeNull()
  })
})
