import { useContext, useEffect, useId, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { ErrorFallback } from '@/components/ui/states'
import { formatPostDate } from '@/lib/format-date'
import { cn } from '@/lib/utils'
import { useCreateReply } from '../api/create-reply'
import { useDeleteReply } from '../api/delete-reply'
import { useThread } from '../api/get-thread'
import { useUpdateReply } from '../api/update-reply'
import { useDraft } from '../lib/drafts'
import { FocusedReply } from '../lib/focused-reply'
import { commentMentions } from '../lib/mentions'
import type { Reply, Thread } from '../lib/thread-cache'
import { AuthorAvatar, creatorName } from './author'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { useForumSuggestions } from '../hooks/forum-suggestions'
import { MAX_POST_TEXT } from './composer/text'
import { ConfirmDeleteDialog } from './confirm-delete-dialog'
import { ManageMenu } from './manage-menu'
import { Reactions } from './reactions'
import { RichText } from './rich-text'
import { TextEditForm } from './text-edit-form'
import { isNew, type Seen } from './unread'

/**
 * Comments is a post's comment section (spec 001 §4 "Comments"): the first
 * comment featured; 'show more' reads the post with every comment and
 * shows them, 'show less' goes back; replies of a comment are toggled by
 * their count link; one level of replies.
 */
export function Comments({ thread, seriesId, expanded, seen }: { thread: Thread; seriesId: string; expanded: boolean; seen: Seen }) {
  const { t } = useTranslation()
  const [showAll, setShowAll] = useState(expanded)
  const full = useThread(thread.id, showAll)
  const comments = showAll ? (full.data?.replies ?? thread.replies) : thread.replies.slice(0, 1)
  const shownCount = comments.reduce((n, c) => n + 1 + c.repliesCount, 0)
  const more = thread.repliesCount > shownCount
  const canMention = useMemo(() => commentMentions(thread.meeting), [thread.meeting])
  return (
    <section aria-label={t('feed.comments.label')} className="grid gap-3">
      {comments.length > 0 && (
        <ul className="grid gap-3">
          {comments.map((c) => (
            <li key={c.id}>
              <CommentItem comment={c} thread={thread} seriesId={seriesId} seen={seen} openReplies={expanded} canMention={canMention} />
            </li>
          ))}
        </ul>
      )}
      {showAll && full.isError && <ErrorFallback message={t('feed.comments.loadFailed')} onRetry={() => void full.refetch()} />}
      {!showAll && more && (
        <div>
          <Button
            variant="link"
            size="sm"
            className="h-auto p-0"
            aria-expanded={false}
            onClick={() => {
              seen.touch()
              setShowAll(true)
            }}
          >
            {t('feed.comments.showMore')}
          </Button>
        </div>
      )}
      {showAll && (full.data?.replies.length ?? 0) > 1 && (
        <div>
          <Button variant="link" size="sm" className="h-auto p-0" aria-expanded onClick={() => setShowAll(false)}>
            {t('feed.comments.showLess')}
          </Button>
        </div>
      )}
      <CommentBox threadId={thread.id} seriesId={seriesId} onSent={seen.touch} canMention={canMention} />
    </section>
  )
}

/** CommentBox writes a comment, or a reply to parentId. */
export function CommentBox({
  threadId,
  parentId,
  seriesId,
  onSent,
  autoFocus,
  canMention,
}: {
  threadId: string
  parentId?: string
  seriesId: string
  onSent?: () => void
  autoFocus?: boolean
  /** Who may be mentioned (a Meet Up post's: commentMentions). */
  canMention?: (userId: string) => boolean
}) {
  const { t } = useTranslation()
  // A draft per post commented on, or per comment replied to.
  const [value, setValue] = useDraft(parentId ? `reply:${parentId}` : `comment:${threadId}`)
  const errorId = useId()
  const suggestions = useForumSuggestions(seriesId)
  const create = useCreateReply(threadId)
  const raw = value.trim()
  const send = () => {
    if (!raw || create.isPending) return
    create.mutate(
      { raw, parentId: parentId ?? null },
      {
        onSuccess: () => {
          setValue('')
          onSent?.()
        },
        onError: (e) => console.warn('comment not sent', e),
      },
    )
  }
  return (
    <form
      className="flex flex-wrap items-start gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        send()
      }}
    >
      <MessageEditor
        suggestions={suggestions}
        value={value}
        onChange={setValue}
        onSubmit={send}
        label={parentId ? t('feed.comments.addReply') : t('feed.comments.add')}
        placeholder={parentId ? t('feed.comments.addReply') : t('feed.comments.add')}
        maxLength={MAX_POST_TEXT}
        canMention={canMention}
        rows={1}
        autoFocus={autoFocus}
        disabled={create.isPending}
        describedBy={create.isError ? errorId : undefined}
        className="flex-1"
      />
      <Button type="submit" size="sm" className="mt-1" disabled={!raw || create.isPending}>
        {create.isPending ? t('feed.comments.sending') : parentId ? t('feed.comments.submitReply') : t('feed.comments.submit')}
      </Button>
      {create.isError && (
        <p id={errorId} role="alert" className="basis-full text-xs text-destructive">
          {t('feed.comments.failed')}
        </p>
      )}
    </form>
  )
}

function CommentItem({
  comment,
  thread,
  seriesId,
  seen,
  openReplies,
  nested,
  canMention,
}: {
  comment: Reply
  thread: Thread
  seriesId: string
  seen: Seen
  openReplies?: boolean
  nested?: boolean
  canMention?: (userId: string) => boolean
}) {
  const { t } = useTranslation()
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [repliesOpen, setRepliesOpen] = useState(!!openReplies)
  const [replying, setReplying] = useState(false)
  const update = useUpdateReply(thread.id, comment.id)
  const remove = useDeleteReply(thread.id, comment.id)
  const name = creatorName(comment.creator)
  const fresh = isNew(comment, seen)
  // The comment a notification is about is brought into view and marked,
  // and takes the focus, so that a screen reader starts there too.
  const focused = useContext(FocusedReply) === comment.id
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    if (!focused || !ref.current) return
    ref.current.scrollIntoView({ block: 'center' })
    ref.current.focus({ preventScroll: true })
  }, [focused])
  return (
    <article
      ref={ref}
      tabIndex={focused ? -1 : undefined}
      className={cn('flex gap-2 outline-none', nested && 'mt-2')}
      aria-label={name}
      aria-current={focused || undefined}
      data-testid={nested ? 'reply' : 'comment'}
      data-id={comment.id}
      data-new={fresh || undefined}
    >
      <AuthorAvatar creator={comment.creator} className="size-8" />
      <div className="min-w-0 flex-1">
        <div className={cn('rounded-lg bg-muted/60 px-3 py-2', focused && 'ring-2 ring-primary')}>
          <header className="flex items-start gap-2">
            <div className="flex min-w-0 flex-1 flex-wrap items-baseline gap-x-2">
              <span className="truncate text-sm font-semibold">{name}</span>
              <time dateTime={comment.createdOn} className="text-xs text-muted-foreground">
                {formatPostDate(comment.createdOn)}
              </time>
              {fresh && <Badge className="px-1.5 py-0 text-[10px]">{t('feed.new')}</Badge>}
            </div>
            {comment.canManage && !editing && (
              <ManageMenu label={t('feed.manageComment')} onEdit={() => setEditing(true)} onDelete={() => setConfirming(true)} />
            )}
          </header>
          {editing ? (
            <TextEditForm
              seriesId={seriesId}
              initial={comment.raw}
              label={t('feed.editComment')}
              canMention={canMention}
              pending={update.isPending}
              onCancel={() => setEditing(false)}
              onSave={(raw) => update.mutate(raw, { onSuccess: () => setEditing(false) })}
            />
          ) : (
            <RichText raw={comment.raw} />
          )}
        </div>
        <div className="mt-1 flex flex-wrap items-center gap-1">
          <Reactions target={{ threadId: thread.id, replyId: comment.id }} item={comment} onReact={seen.touch} compact />
          {!nested && (
            <Button variant="ghost" size="sm" className="h-7 px-2" onClick={() => setReplying((r) => !r)} aria-expanded={replying}>
              {t('feed.comments.reply')}
            </Button>
          )}
          {!nested && comment.repliesCount > 0 && (
            <Button
              variant="link"
              size="sm"
              className="h-7 px-2"
              aria-expanded={repliesOpen}
              onClick={() => {
                if (!repliesOpen) seen.touch()
                setRepliesOpen(!repliesOpen)
              }}
            >
              {repliesOpen ? t('feed.comments.hideReplies') : t('feed.comments.replies', { count: comment.repliesCount })}
            </Button>
          )}
        </div>
        {!nested && repliesOpen && comment.replies.length > 0 && (
          <ul className="grid">
            {comment.replies.map((r) => (
              <li key={r.id}>
                <CommentItem comment={r} thread={thread} seriesId={seriesId} seen={seen} nested canMention={canMention} />
              </li>
            ))}
          </ul>
        )}
        {!nested && replying && (
          <div className="mt-2">
            <CommentBox
              threadId={thread.id}
              parentId={comment.id}
              seriesId={seriesId}
              autoFocus
              canMention={canMention}
              onSent={() => {
                seen.touch()
                setReplying(false)
                setRepliesOpen(true)
              }}
            />
          </div>
        )}
      </div>
      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('feed.deleteCommentTitle')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </article>
  )
}
