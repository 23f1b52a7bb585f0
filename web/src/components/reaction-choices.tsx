import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { REACTION_GLYPHS, REACTION_KINDS, toggledReaction, type ReactionKind } from '@/lib/reactions'

export interface ReactionChoicesProps {
  /** The accessible name of the group of buttons. */
  label: string
  /** The member's current reaction, pressed in the group. */
  chosen: ReactionKind | null | undefined
  /** Called with what choosing a kind sets: that kind, or null when it was the current one. */
  onChoose: (next: ReactionKind | null) => void
  /** Added to the current kind's name, saying that choosing it again removes it. */
  removeLabel?: string
}

/**
 * ReactionChoices is the row of the five reactions (spec 001 "Reactions",
 * spec 002 "Private chat"), each as its glyph and named by its kind; the
 * current one is pressed, and choosing it again clears it. The feed's posts
 * and comments and the private chat's messages offer it in their popovers.
 */
export function ReactionChoices({ label, chosen, onChoose, removeLabel }: ReactionChoicesProps) {
  const { t } = useTranslation()
  return (
    <div role="group" aria-label={label} className="flex gap-1">
      {REACTION_KINDS.map((kind) => {
        const name = t(`feed.reactions.kind.${kind}`)
        return (
          <Button
            key={kind}
            type="button"
            variant={kind === chosen ? 'secondary' : 'ghost'}
            size="icon"
            className="text-xl"
            aria-pressed={kind === chosen}
            aria-label={kind === chosen && removeLabel ? `${name} (${removeLabel})` : name}
            title={name}
            onClick={() => onChoose(toggledReaction(chosen, kind))}
            data-reaction={kind}
          >
            <span aria-hidden>{REACTION_GLYPHS[kind]}</span>
          </Button>
        )
      })}
    </div>
  )
}
