import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Pencil, SendHorizontal, SmilePlus, Trash2, X } from 'lucide-react'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { Button } from '@/components/ui/button'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { REACTION_GLYPHS } from '@/lib/reactions'
import { useCurrentUser } from '@/lib/session-context'
import { CHAT_MAX, type ChatMessage } from './chat'
import { useMeetupRoom } from './context'

const newId = () => (typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`)

/**
 * ChatWindow is the in-meeting chat (spec 002 §2): a floating window on
 * wide screens, a bottom drawer on small ones. Its messages go to everyone
 * in the room as LiveKit data messages; the author edits or deletes their
 * own, others react to it.
 */
export function ChatWindow({ wide, onClose }: { wide: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const body = <ChatBody />
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

function ChatBody() {
  const { t } = useTranslation()
  const { chat = [], sendChat } = useMeetupRoom()
  const me = useCurrentUser()?.user
  const [text, setText] = useState('')
  const [editing, setEditing] = useState<string | null>(null)
  const send = () => {
    const v = text.trim()
    if (!v || !sendChat || !me) return
    if (editing) void sendChat({ type: 'edit', id: editing, text: v })
    else void sendChat({ type: 'create', id: newId(), text: v, at: new Date().toISOString(), name: `${me.firstName} ${me.lastName}`.trim() })
    setText('')
    setEditing(null)
  }
  return (
    <>
      <ul className="min-h-0 flex-1 space-y-2 overflow-y-auto p-3" aria-label={t('meetups.room.chat')} data-testid="chat-messages">
        {chat.length === 0 && <li className="text-sm text-muted-foreground">{t('meetups.room.empty')}</li>}
        {chat.map((m) => (
          <ChatLine key={m.id} m={m} mine={m.from === me?.id} onEdit={() => (setEditing(m.id), setText(m.text))} />
        ))}
      </ul>
      <form
        className="flex gap-2 border-t p-2"
        onSubmit={(e) => {
          e.preventDefault()
          send()
        }}
      >
        <MessageEditor
          label={t('meetups.room.chatMessage')}
          placeholder={t('meetups.room.chatPlaceholder')}
          value={text}
          maxLength={CHAT_MAX}
          rows={2}
          onChange={setText}
          onSubmit={send}
          className="min-w-0 flex-1"
        />
        <Button type="submit" size="icon" aria-label={editing ? t('meetups.room.save') : t('meetups.room.send')} disabled={!text.trim()}>
          <SendHorizontal aria-hidden />
        </Button>
      </form>
    </>
  )
}

function ChatLine({ m, mine, onEdit }: { m: ChatMessage; mine: boolean; onEdit: () => void }) {
  const { t } = useTranslation()
  const { sendChat } = useMeetupRoom()
  const me = useCurrentUser()?.user.id ?? ''
  const reactions = Object.values(m.reactions)
  return (
    <li className="grid gap-0.5 text-sm" data-testid="chat-message">
      <span className="text-xs font-medium text-muted-foreground">{m.name}</span>
      <span className="whitespace-pre-wrap">{m.text}</span>
      <span className="flex items-center gap-1">
        {reactions.length > 0 && <span aria-label={t('meetups.room.react')}>{reactions.join(' ')}</span>}
        {mine ? (
          <>
            <Button type="button" size="icon" variant="ghost" className="size-6" aria-label={t('meetups.room.edit')} onClick={onEdit}>
              <Pencil aria-hidden />
            </Button>
            <Button type="button" size="icon" variant="ghost" className="size-6" aria-label={t('meetups.room.delete')} onClick={() => void sendChat?.({ type: 'delete', id: m.id })}>
              <Trash2 aria-hidden />
            </Button>
          </>
        ) : (
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-6"
            aria-label={t('meetups.room.react')}
            onClick={() => void sendChat?.({ type: 'react', id: m.id, reaction: m.reactions[me] ? null : REACTION_GLYPHS.liked })}
          >
            <SmilePlus aria-hidden />
          </Button>
        )}
      </span>
    </li>
  )
}
