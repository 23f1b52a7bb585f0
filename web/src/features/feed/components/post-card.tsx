import { Component, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from '@tanstack/react-router'
import { MessageSquare, Sparkles, TriangleAlert } from 'lucide-react'
import { Badge } from '@/components/ui/badge'
import { formatPostDate } from '@/lib/format-date'
import { cn } from '@/lib/utils'
import { useDeleteThread } from '../api/delete-thread'
import { useUpdateThread } from '../api/update-thread'
import { useFeedExtensions } from '../lib/extensions'
import type { Thread } from '../lib/thread-cache'
import { AIChat } from './ai-chat'
import { AskerButton } from './asker-button'
import { PostFile, PostImage, PostLink } from './attachments'
import { ProfileButton } from '@/components/profile-button'
import { AuthorAvatar, creatorName } from './author'
import { Comments } from './comments'
import { ConfirmDeleteDialog } from './confirm-delete-dialog'
import { ManageMenu } from './manage-menu'
import { Reactions } from './reactions'
import { RichText } from './rich-text'
import { TextEditForm } from './text-edit-form'
import { isNew, type Seen } from './unread'

const KINDS = new Set<Thread['type']>(['post', 'question', 'shared-ai-chat'])

export type PostCardProps = {
  thread: Thread
  seriesId: string
  /** The member administers the forum (the 'see who asked' look). */
  isForumAdmin: boolean
  seen: Seen
  /** Comments open with every comment and reply (the single-post view). */
  expanded?: boolean
}

/**
 * PostCard is one post of the feed by kind (spec 001 §4 "Post kind"): a
 * plain post, a question (an anonymous one shows no author), or a shared
 * AI chat; with its attachments, reactions and comments. A post it cannot
 * show becomes the feedPostUnknown message, not a broken feed.
 */
export function PostCard(props: PostCardProps) {
  return (
    <PostBoundary>
      <PostCardBody {...props} />
    </PostBoundary>
  )
}

function PostCardBody({ thread, seriesId, isForumAdmin, seen, expanded }: PostCardProps) {
  // A shared AI chat's citations open posts of this forum, whose community the route names.
  const { communityId } = useParams({ strict: false }) as { communityId?: string }
  const { t } = useTranslation()
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const update = useUpdateThread(thread.id)
  const remove = useDeleteThread(thread.id)
  const meeting = useFeedExtensions().meeting
  if (!KINDS.has(thread.type)) return <UnknownPost />
  const anonymous = thread.creatorAs === 'anonymous' || !thread.creator
  const name = anonymous ? t('feed.anonymous') : creatorName(thread.creator)
  const fresh = isNew(thread, seen)
  const titleId = `post-${thread.id}-author`
  const hasAttachment = !!(thread.image || thread.file || thread.link)
  // A shared AI chat shows its conversation in place of its text.
  const chat = thread.type === 'shared-ai-chat' && thread.chat && thread.chat.length > 0 ? thread.chat : null
  return (
    <article
      className={cn('grid gap-3 rounded-lg border bg-card p-4 text-card-foreground shadow-sm', fresh && 'border-primary/60')}
      aria-labelledby={titleId}
      data-testid="post-card"
      data-id={thread.id}
      data-kind={thread.type}
      data-new={fresh || undefined}
    >
      <header className="flex items-start gap-3">
        <AuthorAvatar creator={anonymous ? null : thread.creator} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
            {/* The card is named by its author's name alone, not by the button's words. */}
            <span id={titleId} hidden>
              {name}
            </span>
            <span className="truncate font-semibold" data-testid="post-author">
              {anonymous || !thread.creator ? (
                name
              ) : (
                // The name opens the author's profile, as their picture does.
                <ProfileButton userId={thread.creator.userId} name={name} className="rounded-sm hover:underline">
                  {name}
                </ProfileButton>
              )}
            </span>
            {thread.type === 'question' && <Badge variant="secondary">{t('feed.question')}</Badge>}
            {thread.type === 'shared-ai-chat' && (
              <Badge variant="secondary" className="gap-1">
                <Sparkles className="size-3" aria-hidden />
                {t('feed.sharedAiChat')}
              </Badge>
            )}
            {fresh && <Badge data-testid="new-badge">{t('feed.new')}</Badge>}
          </div>
          <time dateTime={thread.createdOn} className="text-xs text-muted-foreground">
            {formatPostDate(thread.createdOn)}
          </time>
        </div>
        {thread.canManage && !editing && !(thread.meeting && meeting) && (
          <ManageMenu label={t('feed.manage')} onEdit={chat ? undefined : () => setEditing(true)} onDelete={() => setConfirming(true)} />
        )}
      </header>

      {thread.type === 'question' && anonymous && isForumAdmin && <AskerButton threadId={thread.id} />}

      {/* A Meet Up post shows its Meet Up, which has its own edit and delete. */}
      {thread.meeting && meeting?.(thread, { expanded: !!expanded })}

      {editing ? (
        <TextEditForm
          seriesId={seriesId}
          initial={thread.raw}
          label={t('feed.editPost')}
          allowEmpty={hasAttachment}
          pending={update.isPending}
          onCancel={() => setEditing(false)}
          onSave={(raw) => update.mutate({ raw }, { onSuccess: () => setEditing(false) })}
        />
      ) : (
        thread.raw && !chat && <RichText raw={thread.raw} className={cn(thread.type === 'question' && 'text-base font-medium')} />
      )}
      {chat && !editing && <AIChat chat={chat} asker={name} place={communityId ? { communityId, seriesId } : null} />}

      {thread.image && <PostImage image={thread.image} />}
      {thread.file && <PostFile file={thread.file} />}
      {thread.link && <PostLink link={thread.link} />}

      <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-2">
        <Reactions target={{ threadId: thread.id }} item={thread} onReact={seen.touch} />
        {thread.repliesCount > 0 && (
          <span className="flex items-center gap-1 text-xs text-muted-foreground" data-testid="comment-count">
            <MessageSquare className="size-3.5" aria-hidden />
            {thread.commentsCount > 0 && thread.commentsCount < thread.repliesCount
              ? t('feed.comments.countWithReplies', {
                  comments: t('feed.comments.count', { count: thread.commentsCount }),
                  replies: t('feed.comments.replies', { count: thread.repliesCount - thread.commentsCount }),
                })
              : t('feed.comments.count', { count: thread.repliesCount })}
          </span>
        )}
      </div>

      <Comments thread={thread} seriesId={seriesId} expanded={!!expanded} seen={seen} />

      <ConfirmDeleteDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t('feed.deletePostTitle')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
      />
    </article>
  )
}

function UnknownPost() {
  const { t } = useTranslation()
  return (
    <div role="note" className="flex items-center gap-2 rounded-lg border border-dashed p-4 text-sm text-muted-foreground" data-testid="post-unknown">
      <TriangleAlert className="size-4" aria-hidden />
      {t('feed.feedPostUnknown')}
    </div>
  )
}

/** PostBoundary keeps one post that fails to render from taking the feed down with it. */
class PostBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false }
  static getDerivedStateFromError() {
    return { failed: true }
  }
  componentDidCatch(e: unknown) {
    console.warn('post not rendered', e)
  }
  render() {
    return this.state.failed ? <UnknownPost /> : this.props.children
  }
}
