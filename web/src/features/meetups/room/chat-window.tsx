import { useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useInfiniteQuery } from '@tanstack/react-query'
import { Pencil, SendHorizontal, SmilePlus, Trash2, X } from 'lucide-react'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { REACTION_GLYPHS } from '@/lib/reactions'
import { useDeleteMeetupChat } from '../api/delete-meetup-chat'
import { useEditMeetupChat } from '../api/edit-meetup-chat'
import { meetupChatQuery } from '../api/list-meetup-chat'
import { useReactMeetupChat } from '../api/react-meetup-chat'
import { useSendMeetupChat } from '../api/send-meetup-chat'
import type { ChatMessage } from '../api/types'

/** CHAT_MAX is a chat message's longest text (spec 002 §9), as the server holds it. */
export const CHAT_MAX = 800

/**
 * ChatWindow is the in-meeting chat (spec 002 §2): a floating window on
 * wide screens, a bottom drawer on small ones. The chat is stored on the
 * server: opening the window reads its latest 20 messages (older ones on
 * scrolling up), so a member who joins or comes back finds what was said;
 * new, edited and deleted messages come live (the provider applies them).
 * The author edits or deletes their own, others react to it.
 */
export function ChatWindow({ roomId, wide, onClose }: { roomId: string; wide: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const body = <ChatBody roomId={roomId} />
  if (wide)
    return (
      <section
        aria-label={t('meetups.room.chat')}
        className="fixed bottom-20 right-4 z-40 flex h-[28rem] w-80 flex-col rounded-lg border bg-background shadow-xl"
        data-testid="meetup-chat"
      >
        <header className="flex items-center border-b px-3 py-2">
          <h2 className="flex-1 text-sm font-semibold">{t('meetups.room.chat')}</h2>
          <Button type="button" size="icon" variant="ghost" aria-label={t('meetups.room.close')} onClick={onClose}>
            <X aria-hidden />
          </Button>
        </header>
        {body}
      </section>
    )
  return (
    <Sheet open onOpenChange={(o) => !o && onClose()}>
      <SheetContent side="bottom" className="flex h-[70dvh] flex-col p-0" data-testid="meetup-chat">
        <SheetTitle className="border-b px-3 py-2 text-sm">{t('meetups.room.chat')}</SheetTitle>
        <SheetDescription className="sr-only">{t('meetups.room.chat')}</SheetDescription>
        {body}
      </SheetContent>
    </Sheet>
  )
}

function ChatBody({ roomId }: { roomId: string }) {
  const { t } = useTranslation()
  const messages = useInfiniteQuery(meetupChatQuery(roomId))
  const list = (messages.data?.pages.flatMap((p) => p.results) ?? []).slice().reverse()
  const newest = list[list.length - 1]
  const send = useSendMeetupChat(roomId)
  const edit = useEditMeetupChat(roomId)
  const [text, setText] = useState('')
  const [editing, setEditing] = useState<string | null>(null)
  const scroller = useRef<HTMLUListElement>(null)

  // The newest message stays in view as messages arrive.
  useLayoutEffect(() => {
    const el = scroller.current
    if (el) el.scrollTop = el.scrollHeight
  }, [newest?.id])

  const older = () => {
    if (messages.hasNextPage && !messages.isFetchingNextPage) void messages.fetchNextPage()
  }
  const submit = () => {
    const raw = text.trim()
    if (!raw) return
    const done = { onSuccess: () => (setText(''), setEditing(null)) }
    if (editing) edit.mutate({ id: editing, raw }, done)
    else send.mutate(raw, done)
  }
  const failed = send.isError || edit.isError
  return (
    <>
      <ul
        ref={scroller}
        className="min-h-0 flex-1 space-y-2 overflow-y-auto p-3"
        aria-label={t('meetups.room.chat')}
        data-testid="chat-messages"
        onScroll={(e) => e.currentTarget.scrollTop < 40 && older()}
      >
        {messages.hasNextPage && (
          <li className="text-center">
            <Button type="button" variant="ghost" size="sm" onClick={older} disabled={messages.isFetchingNextPage}>
              {t('meetups.room.older')}
            </Button>
          </li>
        )}
        {messages.isPending && <li className="text-sm text-muted-foreground">{t('meetups.room.chatLoading')}</li>}
        {messages.isError && (
          <li role="alert" className="text-sm text-destructive">
            {t('meetups.room.chatNotLoaded')}{' '}
            <Button type="button" variant="link" size="sm" onClick={() => void messages.refetch()}>
              {t('meetups.room.retry')}
            </Button>
          </li>
        )}
        {messages.isSuccess && list.length === 0 && <li className="text-sm text-muted-foreground">{t('meetups.room.empty')}</li>}
        {list.map((m) => (
          <ChatLine key={m.id} roomId={roomId} m={m} onEdit={() => (setEditing(m.id), setText(m.raw))} />
        ))}
      </ul>
      {failed && (
        <p role="alert" className="px-3 text-xs text-destructive">
          {t('meetups.room.chatNotSent')}
        </p>
      )}
      <form
        className="flex gap-2 border-t p-2"
        onSubmit={(e) => {
          e.preventDefault()
          submit()
        }}
      >
        <MessageEditor
          label={t('meetups.room.chatMessage')}
          placeholder={t('meetups.room.chatPlaceholder')}
          value={text}
          maxLength={CHAT_MAX}
          rows={2}
          onChange={setText}
          onSubmit={submit}
          className="min-w-0 flex-1"
        />
        <Button type="submit" size="icon" aria-label={editing ? t('meetups.room.save') : t('meetups.room.send')} disabled={!text.trim() || send.isPending || edit.isPending}>
          <SendHorizontal aria-hidden />
        </Button>
      </form>
    </>
  )
}

function ChatLine({ roomId, m, onEdit }: { roomId: string; m: ChatMessage; onEdit: () => void }) {
  const { t } = useTranslation()
  const remove = useDeleteMeetupChat(roomId)
  const react = useReactMeetupChat(roomId)
  const reactions = Object.values(m.reactions).map((k) => REACTION_GLYPHS[k])
  const edited = m.updatedOn !== m.createdOn
  return (
    <li className="grid gap-0.5 text-sm" data-testid="chat-message">
      <span className="text-xs font-medium text-muted-foreground">
        {m.creator.firstName} {m.creator.lastName}
        {edited && <span className="ml-1 font-normal">{t('meetups.room.edited')}</span>}
      </span>
      <span className="whitespace-pre-wrap">{m.raw}</span>
      <span className="flex items-center gap-1">
        {reactions.length > 0 && <span aria-label={t('meetups.room.react')}>{reactions.join(' ')}</span>}
        {m.isMine ? (
          <>
            <Button type="button" size="icon" variant="ghost" className="size-6" aria-label={t('meetups.room.edit')} onClick={onEdit}>
              <Pencil aria-hidden />
            </Button>
            <Button type="button" size="icon" variant="ghost" className="size-6" aria-label={t('meetups.room.delete')} onClick={() => remove.mutate(m.id)}>
              <Trash2 aria-hidden />
            </Button>
          </>
        ) : (
          <Button type="button" size="icon" variant="ghost" className="size-6" aria-label={t('meetups.room.react')} onClick={() => react.mutate({ id: m.id, reaction: 'liked' })}>
            <SmilePlus aria-hidden />
          </Button>
        )}
      </span>
    </li>
  )
}
