import { useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Smile } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { emojiGroups } from '@/lib/emoji'

const COLUMNS = 8
const all = emojiGroups.flatMap((g) => g.emoji)

/**
 * EmojiPicker is a button that opens a small grid of emoji (no skin tones,
 * spec 001 §9), the one picker of every message editor. The grid is one
 * tab stop; arrow keys move within it (a roving tabindex), Enter or a
 * click picks.
 */
export function EmojiPicker({ onPick, disabled }: { onPick: (emoji: string) => void; disabled?: boolean }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const grid = useRef<HTMLDivElement>(null)
  // After a pick the editor takes the focus back (to its caret), so the
  // popover must not return it to its trigger.
  const picked = useRef(false)

  const focusAt = (i: number) => {
    const next = Math.max(0, Math.min(all.length - 1, i))
    setActive(next)
    grid.current?.querySelector<HTMLButtonElement>(`[data-index="${next}"]`)?.focus()
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS }
    if (e.key in moves) focusAt(active + moves[e.key]!)
    else if (e.key === 'Home') focusAt(0)
    else if (e.key === 'End') focusAt(all.length - 1)
    else return
    e.preventDefault()
  }

  let index = 0
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button type="button" variant="ghost" size="icon" className="size-8" disabled={disabled} aria-label={t('composer.emoji.open')}>
          <Smile />
        </Button>
      </PopoverTrigger>
      <PopoverContent
        className="w-auto p-2"
        align="end"
        aria-label={t('composer.emoji.title')}
        onOpenAutoFocus={(e) => {
          e.preventDefault()
          focusAt(active)
        }}
        onCloseAutoFocus={(e) => {
          if (picked.current) e.preventDefault()
          picked.current = false
        }}
      >
        <div ref={grid} onKeyDown={onKeyDown} className="grid max-h-72 gap-2 overflow-y-auto">
          {emojiGroups.map((g) => (
            <div key={g.id} role="group" aria-label={t(`composer.emoji.groups.${g.id}`)}>
              <p aria-hidden className="px-1 pb-1 text-xs font-medium text-muted-foreground">
                {t(`composer.emoji.groups.${g.id}`)}
              </p>
              <div className="grid grid-cols-8 gap-0.5">
                {g.emoji.map((x) => {
                  const i = index++
                  return (
                    <button
                      key={x.char}
                      type="button"
                      data-index={i}
                      tabIndex={i === active ? 0 : -1}
                      aria-label={x.name}
                      title={`:${x.shortcodes[0]}:`}
                      className="flex size-8 items-center justify-center rounded-md text-xl hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                      onFocus={() => setActive(i)}
                      onClick={() => {
                        picked.current = true
                        onPick(x.char)
                        setOpen(false)
                      }}
                    >
                      {x.char}
                    </button>
                  )
                })}
              </div>
            </div>
          ))}
        </div>
      </PopoverContent>
    </Popover>
  )
}
