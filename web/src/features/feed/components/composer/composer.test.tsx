import { afterEach, describe, expect, it, vi } from 'vitest'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { Schemas } from '@/api/client'
import { Toaster } from '@/components/ui/toast'
import { forum, thread } from '@/test/factories'
import { json, renderInApp, stubFetch } from '@/test/utils'
import { Composer } from './composer'
import { ApiError } from '@/api/client'
import { checkUpload, serverRejection } from './use-upload'

afterEach(() => vi.unstubAllGlobals())

const SERIES = '0190a8b2-0000-7000-8000-000000000001'
const CHANNEL = '0190a8b2-0000-7000-8000-0000000000c1'

const series = forum({
  id: SERIES,
  name: 'Data Science',
  description: 'd',
  context: { communityId: '0190a8b2-0000-7000-8000-0000000000b1' },
  createdOn: '2024-01-01T00:00:00.000Z',
  updatedOn: '2024-01-01T00:00:00.000Z',
  mainChannelId: CHANNEL,
})

/** answer is the post the server makes of a posted body. */
const answer = (body: Record<string, unknown>) =>
  thread('0190a8b2-0000-7000-8000-0000000000d1', {
    channelId: CHANNEL,
    seriesId: SERIES,
    type: body.type as Schemas['Thread']['type'],
    creatorAs: body.creatorAs as Schemas['Thread']['creatorAs'],
    creatorId: null,
    creator: null,
    raw: body.raw as string,
    image: (body.image as Schemas['Thread']['image']) ?? null,
    file: (body.file as Schemas['Thread']['file']) ?? null,
    link: (body.link as Schemas['Thread']['link']) ?? null,
    canManage: true,
    createdOn: '2024-01-01T00:00:00.000Z',
    updatedOn: '2024-01-01T00:00:00.000Z',
  })

/** server answers the composer's calls; `fail` makes the post fail. */
function server({ fail = false, preview = true } = {}) {
  const posted: Record<string, unknown>[] = []
  const calls = stubFetch(async (method, path, req) => {
    const u = new URL(path, 'http://x')
    if (u.pathname === `/api/series/${SERIES}/mention-candidates`) return json(200, { results: [], total: 0 })
    if (method === 'POST' && u.pathname === `/api/series/${SERIES}/threads`) {
      const body = await req.json()
      posted.push(body)
      return fail ? json(400, { code: 'feedPostCreating', message: 'no' }) : json(201, answer(body))
    }
    if (u.pathname === '/api/links/preview') {
      const url = u.searchParams.get('url')!
      return preview
        ? json(200, {
            url,
            mediaType: 'text/html',
            viewerType: 'external',
            preview: { title: 'A page title', description: 'About it', siteName: 'Example' },
          })
        : json(422, { code: 'linkPreviewFailed', message: 'no' })
    }
    return json(404, { code: 'notFound', message: path })
  })
  return { posted, calls }
}

const text = (name = 'Post text') => screen.getByRole('textbox', { name }) as HTMLTextAreaElement
const submit = (name = 'Post') => screen.getByRole('button', { name })

describe('Composer (spec 001 §4 "Composer", §5)', () => {
  it('enables Post only with content, trims the text, and invalidates the channel feed', async () => {
    const { posted } = server()
    const onPosted = vi.fn()
    const { queryClient } = await renderInApp(
      <Composer series={series} channelId={CHANNEL} kind="post" variant="inline" onPosted={onPosted} />,
    )
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    expect(submit()).toBeDisabled()
    await userEvent.type(text(), '   ')
    expect(submit()).toBeDisabled()
    await userEvent.type(text(), 'Hello #forum  ')
    expect(submit()).toBeEnabled()
    await userEvent.click(submit())
    await waitFor(() => expect(onPosted).toHaveBeenCalled())
    expect(posted).toEqual([
      { channelId: CHANNEL, raw: 'Hello #forum', image: null, file: null, link: null, type: 'post', creatorAs: 'author' },
    ])
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['channels', CHANNEL, 'threads'] })
    expect(text().value).toBe('')
  })

  it('asks a question anonymously', async () => {
    const { posted } = server()
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="question" variant="inline" />)
    await userEvent.click(screen.getByRole('radio', { name: 'Anonymous' }))
    await userEvent.type(text('Question text'), 'Who knows Go?{Enter}')
    await waitFor(() => expect(posted).toHaveLength(1))
    expect(posted[0]).toMatchObject({ type: 'question', creatorAs: 'anonymous', raw: 'Who knows Go?' })
  })

  it('shows feedPostCreating and keeps the text when the post fails', async () => {
    server({ fail: true })
    await renderInApp(
      <>
        <Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />
        <Toaster />
      </>,
    )
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await userEvent.type(text(), 'Hello')
    await userEvent.click(submit())
    expect(await screen.findByText('The post could not be published.')).toBeInTheDocument()
    expect(text().value).toBe('Hello')
  })

  it('Cancel asks before it discards, then restores the initial content', async () => {
    server()
    const initial = { raw: 'Draft', image: null, file: null, link: null }
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" initial={initial} />)
    await userEvent.type(text(), ' more')
    expect(text().value).toBe('Draft more')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    let ask = await screen.findByRole('dialog', { name: 'Discard this post?' })
    await userEvent.click(within(ask).getByRole('button', { name: 'Keep editing' }))
    expect(text().value).toBe('Draft more')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    ask = await screen.findByRole('dialog', { name: 'Discard this post?' })
    await userEvent.click(within(ask).getByRole('button', { name: 'Discard' }))
    expect(text().value).toBe('Draft')
  })

  it('adds a web link with its preview, hides the attachment buttons, and posts a link alone', async () => {
    const { posted, calls } = server()
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    const attachments = screen.getByRole('group', { name: 'Attachments' })
    await userEvent.click(within(attachments).getByRole('button', { name: 'Add a web link' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a Web Link' })
    const save = within(dialog).getByRole('button', { name: 'Save' })
    const field = within(dialog).getByRole('textbox', { name: 'Web link' })

    await userEvent.type(field, 'not a link')
    expect(await within(dialog).findByText(/Enter a valid web link/)).toBeInTheDocument()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(save).toBeDisabled()

    await userEvent.clear(field)
    await userEvent.type(field, 'example.com/article')
    expect(await within(dialog).findByText('A page title')).toBeInTheDocument()
    const previews = calls
      .filter((c) => new URL(c.url).pathname === '/api/links/preview')
      .map((c) => new URL(c.url).searchParams.get('url'))
    // Asked once, for the whole address with https:// added.
    expect(previews).toEqual(['https://example.com/article'])
    expect(save).toBeEnabled()
    await userEvent.click(save)

    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByText('A page title')).toBeInTheDocument()
    expect(screen.queryByRole('group', { name: 'Attachments' })).not.toBeInTheDocument()
    expect(submit()).toBeEnabled()
    await userEvent.click(submit())
    await waitFor(() => expect(posted).toHaveLength(1))
    expect(posted[0]).toMatchObject({
      raw: '',
      link: { url: 'https://example.com/article', viewerType: 'external', preview: { title: 'A page title' } },
    })
    // Posted: the composer is empty again, the attachment buttons back.
    expect(screen.getByRole('group', { name: 'Attachments' })).toBeInTheDocument()
  })

  it.each(['Save', 'Enter'])(
    'adds a link to text already typed, saved with %s, without posting early (the link form is portaled inside the composer)',
    async (how) => {
      const { posted } = server()
      await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
      await userEvent.type(text(), 'Read this')
      await userEvent.click(screen.getByRole('button', { name: 'Add a web link' }))
      const dialog = await screen.findByRole('dialog', { name: 'Add a Web Link' })
      const field = within(dialog).getByRole('textbox', { name: 'Web link' })
      await userEvent.type(field, 'example.com/article')
      expect(await within(dialog).findByText('A page title')).toBeInTheDocument()
      if (how === 'Save') await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
      else await userEvent.type(field, '{Enter}')

      expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
      expect(posted).toHaveLength(0)
      expect(text().value).toBe('Read this')
      expect(screen.getByText('A page title')).toBeInTheDocument()
      await userEvent.click(submit())
      await waitFor(() => expect(posted).toHaveLength(1))
      expect(posted[0]).toMatchObject({ raw: 'Read this', link: { url: 'https://example.com/article' } })
    },
  )

  it('keeps a link whose preview failed, without the preview', async () => {
    server({ preview: false })
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    await userEvent.click(screen.getByRole('button', { name: 'Add a web link' }))
    const dialog = await screen.findByRole('dialog', { name: 'Add a Web Link' })
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Web link' }), 'https://down.example.org')
    expect(await within(dialog).findByText(/No preview is available/)).toBeInTheDocument()
    expect(warn).toHaveBeenCalledWith('link preview failed', 'https://down.example.org/', expect.anything())
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(screen.getByRole('link', { name: /down\.example\.org/ })).toHaveAttribute('href', 'https://down.example.org/')
    expect(screen.queryByRole('group', { name: 'Attachments' })).not.toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Remove the link' }))
    expect(screen.getByRole('group', { name: 'Attachments' })).toBeInTheDocument()
  })

  it('shows the drop zones with their limits', async () => {
    server()
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    await userEvent.click(screen.getByRole('button', { name: 'Add an image' }))
    expect(screen.getByText('Max Upload Size: 3MB')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Add a file' }))
    expect(screen.getByText('Max Upload Size: 50MB')).toBeInTheDocument()
    expect(screen.queryByText('Max Upload Size: 3MB')).not.toBeInTheDocument()
  })

  it('rejects an empty file in a warning dialog with one confirm button', async () => {
    server()
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    await userEvent.click(screen.getByRole('button', { name: 'Add a file' }))
    await userEvent.upload(screen.getByTestId('file-input-file'), new File([], 'empty.txt', { type: 'text/plain' }))
    const alert = await screen.findByRole('alertdialog', { name: 'The file cannot be added' })
    expect(within(alert).getByText('no bytes in file')).toBeInTheDocument()
    expect(
      within(alert)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['OK'])
    await userEvent.click(within(alert).getByRole('button', { name: 'OK' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })
})

describe('pasting into the composer (spec 001 §5 "Uploads")', () => {
  it('lists the supported types when the pasted picture is of another type', async () => {
    const calls = server().calls
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    const svg = new File(['<svg/>'], 'drawing.svg', { type: 'image/svg+xml' })
    fireEvent.paste(text(), { clipboardData: { files: [svg], getData: () => '' } })
    const alert = await screen.findByRole('alertdialog')
    expect(within(alert).getByText('Only these image types can be added: PNG, JPEG, GIF, WEBP.')).toBeInTheDocument()
    expect(calls.some((c) => new URL(c.url).pathname === '/api/sas')).toBe(false)
  })

  it('leaves pasted text to the editor', async () => {
    server()
    await renderInApp(<Composer series={series} channelId={CHANNEL} kind="post" variant="inline" />)
    await userEvent.click(text())
    await userEvent.paste('pasted words')
    expect(text().value).toBe('pasted words')
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
  })
})

describe('checkUpload (spec 001 §5 "Uploads")', () => {
  const f = (size: number, name = 'a.png', type = 'image/png') => new File([new Uint8Array(size)], name, { type })
  it('refuses missing, nameless and empty files', () => {
    expect(checkUpload(null, 'file')?.key).toBe('composer.upload.invalidFile')
    expect(checkUpload(f(3, ''), 'file')?.key).toBe('composer.upload.invalidFile')
    expect(checkUpload(f(0), 'file')?.key).toBe('composer.upload.emptyFile')
  })
  it('takes images of the supported types up to 3MB and files up to 50MB', () => {
    expect(checkUpload(f(10), 'image')).toBeNull()
    expect(checkUpload(f(10, 'a.svg', 'image/svg+xml'), 'image')).toEqual({
      key: 'composer.upload.imageTypes',
      values: { types: 'PNG, JPEG, GIF, WEBP' },
    })
    // spec 000 §9: images up to 3,000,000 bytes.
    expect(checkUpload(f(3_000_000), 'image')).toBeNull()
    expect(checkUpload(f(3_000_001), 'image')?.key).toBe('composer.upload.tooLarge')
    expect(checkUpload(f(3_000_001, 'a.pdf', 'application/pdf'), 'file')).toBeNull()
  })
})

describe('serverRejection', () => {
  it('reads the reason of a refused upload from its catalogue code', () => {
    const err = (status: number, code: string, details?: Record<string, unknown>) => new ApiError(status, { code, message: code, details })
    expect(serverRejection(err(400, 'uploadRejected', { supportedTypes: ['image/png'] }), 'image', 'a.png').key).toBe(
      'composer.upload.imageTypes',
    )
    expect(serverRejection(err(400, 'uploadRejected', { reason: 'no bytes in file' }), 'file', 'a').key).toBe('composer.upload.emptyFile')
    expect(serverRejection(err(400, 'uploadRejected', { fields: { name: 'Invalid or missing file.' } }), 'file', '').key).toBe(
      'composer.upload.invalidFile',
    )
    expect(serverRejection(err(413, 'uploadQuotaExceeded', { quota: 209715200, used: 1, size: 209715200 }), 'file', 'a').key).toBe('composer.upload.quota')
    expect(serverRejection(err(403, 'forbidden'), 'file', 'a').key).toBe('composer.upload.noForum')
    expect(serverRejection(err(413, 'uploadTooLarge', { maxSize: 3000000 }), 'image', 'big.png')).toEqual({
      key: 'composer.upload.tooLarge',
      values: { name: 'big.png', max: '3MB' },
    })
    expect(serverRejection(new TypeError('network'), 'file', 'a').key).toBe('composer.upload.failed')
  })
})
