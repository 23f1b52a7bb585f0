import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ClipboardEventHandler,
  type KeyboardEvent,
  type Ref,
} from 'react'
import { useTranslation } from 'react-i18next'
import type { Schemas } from '@/api/client'
import { EmojiPicker } from '@/components/emoji-picker'
import { PersonAvatar } from '@/components/ui/avatar'
import { useDebouncedValue } from '@/hooks/use-debounced-value'
import { convertEmoji } from '@/lib/emoji'
import { mentionMarkup } from '@/lib/mention-markup'
import { useCurrentUser } from '@/lib/session-context'
import { cn } from '@/lib/utils'
import { EDITOR_DEFAULT_MAX, displayText, editDisplayed, editorInput, findTrigger, inMention, replaceDisplayed, textLength } from './text'

/** MentionSuggestion is someone the editor offers after '@'. */
export type MentionSuggestion = Schemas['MentionCandidate']
/** HashtagSuggestion is a hashtag the editor offers after '#', with how many posts use it. */
export type HashtagSuggestion = Schemas['Hashtag']

/**
 * SuggestionAnswer is what a suggestion source knows for a query: its items
 * (undefined before the first answer) and whether they are still the
 * answer to an earlier query, shown while the next one loads.
 */
export type SuggestionAnswer<T> = { items: readonly T[] | undefined; placeholder: boolean }

/**
 * MessageSuggestions are the hooks the editor asks for '@' and '#'
 * suggestions (a forum asks its members and the hashtags of the server).
 * Both are called on every render with the debounced query and whether a
 * list is wanted, so an editor keeps the same source for its whole life.
 */
export interface MessageSuggestions {
  useMentions: (query: string, enabled: boolean) => SuggestionAnswer<MentionSuggestion>
  useHashtags: (query: string, enabled: boolean) => SuggestionAnswer<HashtagSuggestion>
}

/** MessageEditorProps: a controlled value (its stored form, mentions as markup) and how the box behaves. */
export interface MessageEditorProps {
  value: string
  onChange: (value: string) => void
  /** Called on Enter without Shift when canSubmit holds. */
  onSubmit?: () => void
  /** Whether Enter submits; by default, when the text is not empty (a chat message may also be an image alone). */
  canSubmit?: boolean
  /** Where '@' and '#' suggestions come from; without it, '@' and '#' are plain characters. */
  suggestions?: MessageSuggestions
  /** The accessible name of the text box. */
  label: string
  placeholder?: string
  /** At most this many characters; longer input is cut (spec 001 §5, spec 002 "Chat"). */
  maxLength?: number
  /** Whether the editor says how many characters are left once 90% are used (false where the caller shows its own count). */
  countdown?: boolean
  /** Limits who may be mentioned (a Meet Up post's comments: its invitees and creator, spec 001 §5). */
  canMention?: (userId: string) => boolean
  onPaste?: ClipboardEventHandler<HTMLTextAreaElement>
  disabled?: boolean
  autoFocus?: boolean
  rows?: number
  className?: string
  /** Ids of elements that describe the text box (an error, a hint). */
  describedBy?: string
  ref?: Ref<HTMLTextAreaElement>
}

/**
 * At most 8 suggestions show, the best first: typing more narrows them. The
 * list never scrolls, so it has no scrollable region that the keyboard
 * could not reach (the focus stays in the text box; arrows move the
 * highlight).
 */
const SUGGESTION_LIMIT = 8
/** Mention and hashtag suggestions wait 250 ms after typing (spec 001 §9). */
const SEARCH_DEBOUNCE_MS = 250

type Suggestion = { kind: 'mention'; key: string; person: MentionSuggestion } | { kind: 'hashtag'; key: string; name: string; count: number }

// The source of an editor without suggestions: it asks nothing.
const noAnswer = (): SuggestionAnswer<never> => ({ items: undefined, placeholder: false })

/**
 * MessageEditor is the one text box for writing a message: posts,
 * questions and comments (spec 001 §4, §5), the private chat and the Meet
 * Up chat (spec 002 "Chat"). With suggestions, '@' suggests people whose
 * name matches what follows it and inserts `[Display Name](userId)`, and
 * '#' suggests hashtags (debounced 250 ms); colon shortcuts turn into
 * emoji, and an emoji picker inserts at the caret. Leading whitespace is
 * dropped and the text is cut at maxLength as it is typed; Enter without
 * Shift submits, Shift+Enter is a new line.
 *
 * The suggestions follow the ARIA autocomplete pattern for a multi-line text
 * box: the textarea keeps its textbox role (HTML allows no other role on a
 * textarea, so role=combobox would be invalid there) and points at the
 * listbox with aria-controls and at the highlighted option with
 * aria-activedescendant; a live region reads out how many suggestions there
 * are.
 */
export function MessageEditor({
  value,
  onChange,
  onSubmit,
  canSubmit,
  suggestions: source,
  label,
  placeholder,
  maxLength = EDITOR_DEFAULT_MAX,
  countdown = true,
  canMention,
  onPaste,
  disabled,
  autoFocus,
  rows = 3,
  className,
  describedBy,
  ref,
}: MessageEditorProps) {
  const { t } = useTranslation()
  const me = useCurrentUser()?.user.id
  const listId = useId()
  const countId = useId()
  const area = useRef<HTMLTextAreaElement | null>(null)
  const [caret, setCaret] = useState(value.length)
  const [focused, setFocused] = useState(false)
  const [active, setActive] = useState(0)
  // The trigger start the user dismissed with Escape: no list for it until
  // another trigger is typed.
  const [dismissed, setDismissed] = useState<number | null>(null)
  // Where the caret goes after a programmatic change (a controlled textarea
  // puts it at the end otherwise).
  const pendingCaret = useRef<number | null>(null)
  // Whether a pointer button is down anywhere on the page.
  const pressing = useRef(false)
  useEffect(() => {
    const down = () => (pressing.current = true)
    const up = () => (pressing.current = false)
    window.addEventListener('pointerdown', down, true)
    window.addEventListener('pointerup', up, true)
    return () => {
      window.removeEventListener('pointerdown', down, true)
      window.removeEventListener('pointerup', up, true)
    }
  }, [])

  // The member sees and edits each mention as "@Display Name"; value, what
  // is sent, keeps its markup. caret and the trigger are positions in the
  // displayed text.
  const display = useMemo(() => displayText(value), [value])
  const rawTrigger = useMemo(() => {
    const found = focused && source ? findTrigger(display, caret) : null
    return found && !inMention(value, found.start) ? found : null
  }, [focused, source, display, value, caret])
  const trigger = rawTrigger && rawTrigger.start !== dismissed ? rawTrigger : null

  const mentionQuery = useDebouncedValue(trigger?.kind === 'mention' ? trigger.query : '', SEARCH_DEBOUNCE_MS)
  const members = (source?.useMentions ?? noAnswer)(mentionQuery, trigger?.kind === 'mention')
  const tagQuery = useDebouncedValue(trigger?.kind === 'hashtag' ? trigger.query : '', SEARCH_DEBOUNCE_MS)
  const tags = (source?.useHashtags ?? noAnswer)(tagQuery, trigger?.kind === 'hashtag')

  const suggestions: Suggestion[] = useMemo(() => {
    if (!trigger) return []
    if (trigger.kind === 'mention') {
      // The server matches the name (allowing a typo); the list only drops
      // the writer and whom this text may not mention.
      return (members.items ?? [])
        .filter((p) => p.userId !== me && (!canMention || canMention(p.userId)))
        .slice(0, SUGGESTION_LIMIT)
        .map((p) => ({ kind: 'mention', key: p.userId, person: p }))
    }
    return (tags.items ?? [])
      .slice(0, SUGGESTION_LIMIT)
      .map((h) => ({ kind: 'hashtag', key: h.name, name: h.name, count: h.count }))
  }, [trigger, members.items, tags.items, me, canMention])
  const open = suggestions.length > 0
  // The list may still show the answer to an earlier query (it stays up
  // while the next one loads): only an answer to what is typed now may be
  // picked, or Enter would insert someone the member did not ask for.
  const current =
    !!trigger &&
    (trigger.kind === 'mention'
      ? mentionQuery === trigger.query && !!members.items && !members.placeholder
      : tagQuery === trigger.query && !!tags.items && !tags.placeholder)
  // An Enter pressed before the answer came: it picks once the answer to the same query is in.
  const [pendingPick, setPendingPick] = useState<{ start: number; query: string } | null>(null)

  useEffect(() => setActive(0), [trigger?.kind, trigger?.start, trigger?.query])
  useEffect(() => {
    if (rawTrigger?.start !== dismissed) setDismissed(null)
  }, [rawTrigger?.start, dismissed])
  const activeIndex = Math.min(active, Math.max(0, suggestions.length - 1))
  const optionId = (i: number) => `${listId}-option-${i}`
  useEffect(() => {
    if (open) document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' })
    // optionId is remade every render from the stable listId: not a dependency.
  }, [open, activeIndex])

  useLayoutEffect(() => {
    const el = area.current
    if (el && pendingCaret.current !== null && document.activeElement === el) {
      el.setSelectionRange(pendingCaret.current, pendingCaret.current)
      pendingCaret.current = null
    }
  }, [value])

  const setText = (text: string, at: number) => {
    const next = editorInput(text, maxLength)
    // Dropping leading whitespace moves the caret left by as much.
    const removed = text.length - text.replace(/^\s+/u, '').length
    const c = Math.min(Math.max(0, at - removed), displayText(next).length)
    pendingCaret.current = c
    setCaret(c)
    onChange(next)
  }

  const pick = (s: Suggestion) => {
    if (!trigger) return
    const insertion = s.kind === 'mention' ? `${mentionMarkup(s.person.firstName, s.person.lastName, s.person.userId)} ` : `#${s.name} `
    const r = replaceDisplayed(value, trigger.start, trigger.end, insertion)
    area.current?.focus()
    setText(r.text, r.caret)
  }

  useEffect(() => {
    if (!pendingPick) return
    if (!trigger || trigger.start !== pendingPick.start || trigger.query !== pendingPick.query) setPendingPick(null)
    else if (current) {
      setPendingPick(null)
      if (suggestions.length > 0) pick(suggestions[activeIndex]!)
    }
    // pick is remade every render; it reads the state this effect follows.
  }, [pendingPick, trigger, current, suggestions, activeIndex])

  const insertEmoji = (emoji: string) => {
    const el = area.current
    const start = el?.selectionStart ?? display.length
    const end = el?.selectionEnd ?? start
    const r = replaceDisplayed(value, start, end, emoji)
    el?.focus()
    setText(r.text, r.caret)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return
    if (trigger && !current && (e.key === 'Enter' || e.key === 'Tab') && !e.shiftKey) {
      setPendingPick({ start: trigger.start, query: trigger.query })
      e.preventDefault()
      return
    }
    if (open) {
      switch (e.key) {
        case 'ArrowDown':
          setActive((activeIndex + 1) % suggestions.length)
          e.preventDefault()
          return
        case 'ArrowUp':
          setActive((activeIndex - 1 + suggestions.length) % suggestions.length)
          e.preventDefault()
          return
        case 'Enter':
        case 'Tab':
          if (e.shiftKey) break
          pick(suggestions[activeIndex]!)
          e.preventDefault()
          return
        case 'Escape':
          setDismissed(trigger!.start)
          e.preventDefault()
          return
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && onSubmit) {
      e.preventDefault()
      if (canSubmit ?? !!value.trim()) onSubmit()
    }
  }

  const length = textLength(value)
  const syncCaret = (el: HTMLTextAreaElement) => setCaret(el.selectionStart ?? el.value.length)

  return (
    <div className={className}>
      <div className="relative">
        <div className="relative rounded-md border border-input bg-background shadow-xs focus-within:ring-2 focus-within:ring-ring">
          <textarea
            ref={(el) => {
              area.current = el
              if (typeof ref === 'function') ref(el)
              else if (ref) ref.current = el
            }}
            value={display}
            rows={rows}
            aria-label={label}
            placeholder={placeholder}
            disabled={disabled}
            autoFocus={autoFocus}
            aria-autocomplete="list"
            aria-controls={open ? listId : undefined}
            aria-activedescendant={open ? optionId(activeIndex) : undefined}
            aria-describedby={[open ? countId : '', describedBy ?? ''].filter(Boolean).join(' ') || undefined}
            className="block w-full resize-y rounded-md bg-transparent px-3 py-2 pr-10 text-sm placeholder:text-muted-foreground focus-visible:outline-none disabled:cursor-not-allowed disabled:opacity-50"
            onChange={(e) => {
              const el = e.target
              const at = el.selectionStart ?? el.value.length
              const converted = convertEmoji(el.value, at)
              const r = editDisplayed(value, converted?.text ?? el.value, converted?.caret ?? at)
              setText(r.text, r.caret)
            }}
            onSelect={(e) => syncCaret(e.currentTarget)}
            onFocus={(e) => {
              setFocused(true)
              syncCaret(e.currentTarget)
            }}
            onBlur={() => {
              // The list is in the flow: closing it while a button below is
              // pressed would move the button from under the pointer before
              // the press ends, and the click would be lost. It closes once
              // the press is over.
              if (pressing.current) window.addEventListener('pointerup', () => setTimeout(() => setFocused(false)), { once: true })
              else setFocused(false)
            }}
            onKeyDown={onKeyDown}
            onPaste={onPaste}
          />
          <div className="absolute right-1 top-1">
            <EmojiPicker onPick={insertEmoji} disabled={disabled} />
          </div>
        </div>
        <span id={countId} className="sr-only" aria-live="polite">
          {open ? t('composer.suggestions.count', { count: suggestions.length }) : ''}
        </span>
        {open && (
          <ul
            id={listId}
            role="listbox"
            aria-label={trigger!.kind === 'mention' ? t('composer.suggestions.mentions') : t('composer.suggestions.hashtags')}
            // In the flow, under the text box: the list pushes what follows
            // down instead of covering it (the Post and Cancel buttons stay
            // in sight and clickable).
            className="mt-1 rounded-md border bg-popover p-1 text-popover-foreground shadow-md"
          >
            {suggestions.map((s, i) => (
              <li
                key={s.key}
                id={optionId(i)}
                role="option"
                aria-selected={i === activeIndex}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-sm px-2 py-1.5 text-sm',
                  i === activeIndex && 'bg-accent text-accent-foreground',
                )}
                // Keep the focus (and the caret) in the text box.
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => pick(s)}
              >
                {s.kind === 'mention' ? (
                  <>
                    <PersonAvatar person={{ id: s.person.userId, ...s.person }} className="size-6" />
                    <span className="min-w-0 truncate">
                      <span className="font-medium">
                        {s.person.firstName} {s.person.lastName}
                      </span>
                      {(s.person.jobTitle || s.person.company) && (
                        <span className="text-muted-foreground"> · {[s.person.jobTitle, s.person.company].filter(Boolean).join(', ')}</span>
                      )}
                    </span>
                  </>
                ) : (
                  <>
                    <span className="font-medium">#{s.name}</span>
                    <span className="ml-auto text-xs text-muted-foreground">{t('composer.suggestions.uses', { count: s.count })}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
      {countdown && length >= maxLength * 0.9 && (
        <p className="mt-1 text-right text-xs text-muted-foreground">{t('composer.charactersLeft', { count: maxLength - length })}</p>
      )}
    </div>
  )
}
