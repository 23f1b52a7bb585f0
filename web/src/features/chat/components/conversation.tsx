import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { ArrowLeft, ImagePlus, Pencil, SmilePlus, Trash2, X } from 'lucide-react'
import { isApiError } from '@/api/client'
import { uploadFile } from '@/api/upload'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { ReactionChoices } from '@/components/reaction-choices'
import { textLength } from '@/components/message-editor/text'
import { PersonAvatar } from '@/components/ui/avatar'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { ErrorFallback } from '@/components/ui/states'
import { formatPostDate } from '@/lib/format-date'
import { useOpenProfile } from '@/lib/profile-opener'
import { REACTION_GLYPHS } from '@/lib/reactions'
import { useDeleteMessage } from '../api/delete-message'
import { useEditMessage } from '../api/edit-message'
import { peerChannelQuery } from '../api/get-peer-channel'
import { messagesQuery } from '../api/list-messages'
import { useMarkSeen } from '../api/mark-seen'
import { useReactToMessage } from '../api/react-to-message'
import { useSendMessage } from '../api/send-message'
import type { ChatMessage } from '../api/types'
import { openChat, type ChatPeer } from '../lib/open-chat'
import { PresenceDot } from './presence-dot'

/** A message holds at most 800 characters, also when edited (spec 002 §5). */
export const MAX_CHARS = 800

/**
 * Conversation is the chat with one peer (spec 002 §2): back, the peer's
 * header, the messages oldest at the top (older ones on scrolling up), and
 * the editor. Opening it, and a new message while it is open, marks it seen.
 */
export function Conversation({ peer }: { peer: ChatPeer }) {
  const { t } = useTranslation()
  const openProfile = useOpenProfile()
  const channels = useQuery(peerChannelQuery(peer.userId))
  const channel = channels.data?.results[0]
  const messages = useInfiniteQuery({ ...messagesQuery(channel?.id ?? ''), enabled: !!channel })
  const list = (messages.data?.pages.flatMap((p) => p.results) ?? []).slice().reverse()
  const newest = list[list.length - 1]
  const seen = useMarkSeen()
  const { mutate: markSeen } = seen
  const scroller = useRef<HTMLDivElement>(null)

  // Seen when opened, and again when the peer's message arrives while open.
  const theirs = newest && !newest.isMine ? newest.id : null
  const loaded = messages.isSuccess
  useEffect(() => {
    if (channel?.id && loaded) markSeen(channel.id)
  }, [channel?.id, loaded, theirs, markSeen])

  // The newest message stays in view as messages arrive.
  useLayoutEffect(() => {
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [newest?.id])

  const older = () => {
    if (messages.hasNextPage && !messages.isFetchingNextPage) void messages.fetchNextPage()
  }

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="conversation">
      <div className="flex items-center gap-2 border-b px-2 py-2">
        <Button variant="ghost" size="icon" aria-label={t('chat.back')} onClick={() => openChat(null)}>
          <ArrowLeft aria-hidden />
        </Button>
        {/* The peer's header leads to their profile. */}
        <h2 className="min-w-0 font-medium">
          <button
            type="button"
            className="flex max-w-full items-center gap-2 rounded-md text-left hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:no-underline"
            onClick={() => openProfile?.(peer.userId)}
            disabled={!openProfile}
            title={t('chat.peerProfile', { name: `${peer.firstName} ${peer.lastName}` })}
          >
            <span className="relative shrink-0">
              <PersonAvatar person={{ id: peer.userId, ...peer }} className="size-8" />
              {channel && <PresenceDot status={channel.peer.status} />}
            </span>
            <span className="truncate" data-testid="conversation-peer">
              {peer.firstName} {peer.lastName}
            </span>
          </button>
        </h2>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 space-y-3 overflow-y-auto p-3" onScroll={(e) => e.currentTarget.scrollTop < 40 && older()} aria-live="polite">
        {messages.hasNextPage && (
          <div className="text-center">
            <Button variant="ghost" size="sm" onClick={older} disabled={messages.isFetchingNextPage}>
              {t('chat.older')}
            </Button>
          </div>
        )}
        {(channels.isError || messages.isError) && <ErrorFallback onRetry={() => void (channels.isError ? channels.refetch() : messages.refetch())} />}
        {channels.isSuccess && !channel && <p className="py-8 text-center text-sm text-muted-foreground">{t('chat.startConversation', { name: peer.firstName })}</p>}
        {list.map((m) => (
          <MessageItem key={m.id} message={m} peerId={peer.userId} />
        ))}
      </div>
      <Editor peerId={peer.userId} />
    </div>
  )
}

function MessageItem({ message: m, peerId }: { message: ChatMessage; peerId: string }) {
  const { t } = useTranslation()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(m.raw)
  const [confirm, setConfirm] = useState(false)
  const [reacting, setReacting] = useState(false)
  const edit = useEditMessage()
  const del = useDeleteMessage()
  const react = useReactToMessage()
  // On one's own message, the other's reaction; on theirs, one's own.
  const shown = m.isMine ? m.reactions[peerId] : Object.entries(m.reactions).find(([u]) => u !== peerId)?.[1]
  const save = () =>
    edit.mutate(
      { id: m.id, body: { raw: draft.trim() } },
      { onSuccess: () => setEditing(false) },
    )
  return (
    <div className={m.isMine ? 'ml-8 flex flex-col items-end' : 'mr-8 flex flex-col items-start'} data-testid="chat-message" data-mine={m.isMine}>
      <div className={m.isMine ? 'rounded-lg bg-primary px-3 py-2 text-primary-foreground' : 'rounded-lg bg-muted px-3 py-2'}>
        {editing ? (
          <div className="space-y-2">
            <MessageEditor value={draft} onChange={setDraft} maxLength={MAX_CHARS} countdown={false} label={t('chat.editMessage')} rows={3} className="text-foreground" />
            <Counter n={textLength(draft)} />
            {edit.isError && <p className="text-xs">{errorText(edit.error, t)}</p>}
            <div className="flex justify-end gap-2">
              <Button size="sm" variant="secondary" onClick={() => (setEditing(false), setDraft(m.raw))}>
                {t('chat.cancel')}
              </Button>
              <Button size="sm" variant="secondary" onClick={save} disabled={edit.isPending || (!draft.trim() && !m.image && !m.file)}>
                {t('chat.save')}
              </Button>
            </div>
          </div>
        ) : (
          <>
            {m.image && <img src={m.image.url} alt={t('chat.image')} className="mb-1 max-h-60 rounded" />}
            {m.raw && <p className="whitespace-pre-wrap break-words text-sm">{m.raw}</p>}
            {m.file && (
              <a href={m.file.url} className="text-sm underline" target="_blank" rel="noreferrer">
                {m.file.name}
              </a>
            )}
          </>
        )}
      </div>
      <div className="mt-0.5 flex items-center gap-1 text-xs text-muted-foreground">
        <time dateTime={m.createdOn}>{formatPostDate(m.createdOn)}</time>
        {shown && (
          <span role="img" aria-label={t('chat.reaction', { kind: t(`feed.reactions.kind.${shown}`) })} data-testid="shown-reaction">
            {REACTION_GLYPHS[shown]}
          </span>
        )}
        {m.isMine && !editing && (
          <>
            <Button variant="ghost" size="icon" className="size-6" aria-label={t('chat.edit')} onClick={() => (setDraft(m.raw), setEditing(true))}>
              <Pencil aria-hidden className="size-3" />
            </Button>
            <Button variant="ghost" size="icon" className="size-6" aria-label={t('chat.delete')} onClick={() => setConfirm(true)}>
              <Trash2 aria-hidden className="size-3" />
            </Button>
          </>
        )}
        {!m.isMine && (
          <Popover open={reacting} onOpenChange={setReacting}>
            <PopoverTrigger asChild>
              <Button variant="ghost" size="icon" className="size-6" aria-label={t('chat.react')}>
                <SmilePlus aria-hidden className="size-3" />
              </Button>
            </PopoverTrigger>
            <PopoverContent className="w-auto p-1" aria-label={t('chat.react')}>
              <ReactionChoices
                label={t('chat.react')}
                chosen={shown}
                onChoose={(reaction) => {
                  setReacting(false)
                  react.mutate({ id: m.id, reaction })
                }}
              />
            </PopoverContent>
          </Popover>
        )}
      </div>
      <Dialog open={confirm} onOpenChange={setConfirm}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('chat.deleteTitle')}</DialogTitle>
            <DialogDescription>{t('chat.deleteBody')}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirm(false)}>
              {t('chat.cancel')}
            </Button>
            <Button variant="destructive" disabled={del.isPending} onClick={() => del.mutate(m, { onSuccess: () => setConfirm(false) })}>
              {t('chat.delete')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  )
}

function Counter({ n }: { n: number }) {
  return (
    <span className="block text-right text-xs tabular-nums" data-testid="chat-counter">
      {n}/{MAX_CHARS}
    </span>
  )
}

const errorText = (e: unknown, t: (k: string) => string) => (isApiError(e) && e.code === 'forbidden' ? t('chat.notPeer') : t('chat.failed'))

/**
 * Editor writes a message with the shared MessageEditor: text up to 800
 * characters, emoji, an image; Enter sends (an image alone too),
 * Shift+Enter breaks the line.
 */
function Editor({ peerId }: { peerId: string }) {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const [image, setImage] = useState<{ url: string } | null>(null)
  const [uploading, setUploading] = useState(false)
  const [uploadFailed, setUploadFailed] = useState(false)
  const send = useSendMessage()
  const file = useRef<HTMLInputElement>(null)
  const canSend = !send.isPending && !uploading && (!!text.trim() || !!image)
  const submit = () => {
    if (!canSend) return
    send.mutate(
      { memberIds: [peerId], raw: text.trim(), ...(image ? { image } : {}) },
      {
        onSuccess: () => {
          setText('')
          setImage(null)
        },
      },
    )
  }
  const attach = async (f: File | undefined) => {
    if (!f) return
    setUploading(true)
    setUploadFailed(false)
    try {
      const up = await uploadFile(f, 'image')
      setImage({ url: up.url })
    } catch {
      setUploadFailed(true)
    } finally {
      setUploading(false)
    }
  }
  return (
    <div className="border-t p-2" data-testid="chat-editor">
      {image && (
        <div className="relative mb-2 inline-block">
          <img src={image.url} alt={t('chat.image')} className="max-h-24 rounded" />
          <Button variant="secondary" size="icon" className="absolute right-1 top-1 size-6" aria-label={t('chat.removeImage')} onClick={() => setImage(null)}>
            <X aria-hidden />
          </Button>
        </div>
      )}
      <MessageEditor
        value={text}
        onChange={setText}
        onSubmit={submit}
        canSubmit={canSend}
        maxLength={MAX_CHARS}
        countdown={false}
        placeholder={t('chat.placeholder')}
        label={t('chat.message')}
        rows={2}
      />
      {(send.isError || uploadFailed) && (
        <p role="alert" className="mt-1 text-xs text-destructive">
          {uploadFailed ? t('chat.uploadFailed') : errorText(send.error, t)}
        </p>
      )}
      <div className="mt-1 flex items-center gap-1">
        <Button variant="ghost" size="icon" className="size-8" aria-label={t('chat.attachImage')} disabled={uploading} onClick={() => file.current?.click()}>
          <ImagePlus aria-hidden />
        </Button>
        <input
          ref={file}
          type="file"
          accept="image/jpeg,image/png,image/gif,image/webp"
          className="hidden"
          data-testid="chat-image-input"
          onChange={(e) => {
            void attach(e.target.files?.[0])
            e.target.value = ''
          }}
        />
        <span className="ml-auto text-muted-foreground">
          <Counter n={textLength(text)} />
        </span>
        <Button size="sm" onClick={submit} disabled={!canSend}>
          {t('chat.send')}
        </Button>
      </div>
    </div>
  )
}
