import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { MessageEditor } from '@/components/message-editor/message-editor'
import { useForumSuggestions } from '../hooks/forum-suggestions'
import { MAX_POST_TEXT } from './composer/text'

/**
 * TextEditForm edits the text of a post or comment in place. `allowEmpty`
 * is for a post that keeps an attachment (a post needs text, an image, a
 * file or a link; a comment needs text).
 */
export function TextEditForm({
  seriesId,
  initial,
  label,
  allowEmpty,
  canMention,
  pending,
  onSave,
  onCancel,
}: {
  seriesId: string
  initial: string
  label: string
  allowEmpty?: boolean
  /** Who may be mentioned (see MessageEditor). */
  canMention?: (userId: string) => boolean
  pending: boolean
  onSave: (raw: string) => void
  onCancel: () => void
}) {
  const { t } = useTranslation()
  const suggestions = useForumSuggestions(seriesId)
  const [value, setValue] = useState(initial)
  const trimmed = value.trim()
  const canSave = !pending && (allowEmpty || trimmed.length > 0) && trimmed !== initial.trim()
  const save = () => canSave && onSave(trimmed)
  return (
    <form
      className="grid gap-2"
      onSubmit={(e) => {
        e.preventDefault()
        save()
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      <MessageEditor suggestions={suggestions} value={value} onChange={setValue} onSubmit={save} label={label} maxLength={MAX_POST_TEXT} canMention={canMention} autoFocus rows={3} />
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onCancel}>
          {t('feed.cancel')}
        </Button>
        <Button type="submit" size="sm" disabled={!canSave}>
          {pending ? t('feed.saving') : t('feed.save')}
        </Button>
      </div>
    </form>
  )
}
