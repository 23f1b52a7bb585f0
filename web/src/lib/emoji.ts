// The emoji the picker offers and the colon shortcuts the message editor
// converts (spec 001 §5 "Mentions and hashtags", §9 "Emoji picker shows no
// skin tones"; spec 002 "Chat": emoji enabled). One set for every editor
// (posts, comments, the private chat and the Meet Up chat). A small
// hand-picked set, in the default (yellow) tone only, keeps the bundle
// small; the shortcodes are the common Slack and GitHub names.

/** Emoji is one emoji of the set: its character, its accessible name and its colon shortcodes. */
export type Emoji = { char: string; name: string; shortcodes: string[] }
/** EmojiGroup is a labelled row of the picker (its label is composer.emoji.groups.<id>). */
export type EmojiGroup = { id: 'smileys' | 'gestures' | 'hearts' | 'nature' | 'food' | 'activities' | 'objects'; emoji: Emoji[] }

const e = (char: string, name: string, ...shortcodes: string[]): Emoji => ({ char, name, shortcodes })

/** emojiGroups is the whole set, in the order the picker shows it. */
export const emojiGroups: EmojiGroup[] = [
  {
    id: 'smileys',
    emoji: [
      e('😀', 'grinning face', 'grinning'),
      e('😄', 'smiling face with open mouth', 'smile'),
      e('😁', 'beaming face', 'grin'),
      e('😂', 'face with tears of joy', 'joy'),
      e('🤣', 'rolling on the floor laughing', 'rofl'),
      e('🙂', 'slightly smiling face', 'slightly_smiling_face'),
      e('😊', 'smiling face with smiling eyes', 'blush'),
      e('😉', 'winking face', 'wink'),
      e('😍', 'smiling face with heart-eyes', 'heart_eyes'),
      e('🥰', 'smiling face with hearts', 'smiling_face_with_three_hearts'),
      e('😎', 'smiling face with sunglasses', 'sunglasses'),
      e('🤓', 'nerd face', 'nerd_face'),
      e('🤔', 'thinking face', 'thinking', 'thinking_face'),
      e('😐', 'neutral face', 'neutral_face'),
      e('🙄', 'face with rolling eyes', 'roll_eyes'),
      e('😮', 'face with open mouth', 'open_mouth'),
      e('😲', 'astonished face', 'astonished'),
      e('😅', 'grinning face with sweat', 'sweat_smile'),
      e('😢', 'crying face', 'cry'),
      e('😭', 'loudly crying face', 'sob'),
      e('😞', 'disappointed face', 'disappointed'),
      e('😕', 'confused face', 'confused'),
      e('😛', 'face with tongue', 'stuck_out_tongue'),
      e('😜', 'winking face with tongue', 'stuck_out_tongue_winking_eye'),
      e('😡', 'pouting face', 'rage'),
      e('😴', 'sleeping face', 'sleeping'),
      e('🤯', 'exploding head', 'exploding_head'),
      e('🥳', 'partying face', 'partying_face'),
    ],
  },
  {
    id: 'gestures',
    emoji: [
      e('👍', 'thumbs up', '+1', 'thumbsup'),
      e('👎', 'thumbs down', '-1', 'thumbsdown'),
      e('👏', 'clapping hands', 'clap'),
      e('🙌', 'raising hands', 'raised_hands'),
      e('🙏', 'folded hands', 'pray'),
      e('👋', 'waving hand', 'wave'),
      e('👌', 'OK hand', 'ok_hand'),
      e('✌️', 'victory hand', 'v'),
      e('🤝', 'handshake', 'handshake'),
      e('💪', 'flexed biceps', 'muscle'),
      e('👀', 'eyes', 'eyes'),
      e('🤞', 'crossed fingers', 'crossed_fingers'),
    ],
  },
  {
    id: 'hearts',
    emoji: [
      e('❤️', 'red heart', 'heart'),
      e('🧡', 'orange heart', 'orange_heart'),
      e('💛', 'yellow heart', 'yellow_heart'),
      e('💚', 'green heart', 'green_heart'),
      e('💙', 'blue heart', 'blue_heart'),
      e('💜', 'purple heart', 'purple_heart'),
      e('💔', 'broken heart', 'broken_heart'),
      e('💯', 'hundred points', '100'),
    ],
  },
  {
    id: 'nature',
    emoji: [
      e('🌞', 'sun with face', 'sun_with_face'),
      e('🌈', 'rainbow', 'rainbow'),
      e('🔥', 'fire', 'fire'),
      e('⭐', 'star', 'star'),
      e('🌟', 'glowing star', 'star2'),
      e('🌱', 'seedling', 'seedling'),
      e('🌻', 'sunflower', 'sunflower'),
      e('🐶', 'dog face', 'dog'),
      e('🐱', 'cat face', 'cat'),
      e('🦄', 'unicorn', 'unicorn'),
    ],
  },
  {
    id: 'food',
    emoji: [
      e('☕', 'hot beverage', 'coffee'),
      e('🍵', 'teacup without handle', 'tea'),
      e('🍕', 'pizza', 'pizza'),
      e('🍰', 'shortcake', 'cake'),
      e('🍎', 'red apple', 'apple'),
      e('🍪', 'cookie', 'cookie'),
    ],
  },
  {
    id: 'activities',
    emoji: [
      e('🎉', 'party popper', 'tada'),
      e('🎊', 'confetti ball', 'confetti_ball'),
      e('🎓', 'graduation cap', 'mortar_board'),
      e('🏆', 'trophy', 'trophy'),
      e('🥇', 'first place medal', '1st_place_medal'),
      e('🎯', 'direct hit', 'dart'),
      e('🚀', 'rocket', 'rocket'),
      e('✅', 'check mark button', 'white_check_mark'),
    ],
  },
  {
    id: 'objects',
    emoji: [
      e('💡', 'light bulb', 'bulb'),
      e('📚', 'books', 'books'),
      e('📝', 'memo', 'memo', 'pencil'),
      e('📌', 'pushpin', 'pushpin'),
      e('📅', 'calendar', 'date'),
      e('⏰', 'alarm clock', 'alarm_clock'),
      e('💻', 'laptop', 'computer'),
      e('📈', 'chart increasing', 'chart_with_upwards_trend'),
      e('❓', 'question mark', 'question'),
      e('❗', 'exclamation mark', 'exclamation'),
      e('⚠️', 'warning', 'warning'),
      e('🔗', 'link', 'link'),
    ],
  },
]

/** emojiByShortcode maps "smile" (of ":smile:") to its emoji. */
export const emojiByShortcode = new Map(emojiGroups.flatMap((g) => g.emoji.flatMap((x) => x.shortcodes.map((s) => [s, x.char] as const))))

/** emoticons maps the colon emoticons (":)", ":D"…) to emoji. */
export const emoticons = new Map<string, string>([
  [':)', '🙂'],
  [':-)', '🙂'],
  [':D', '😄'],
  [':-D', '😄'],
  [':(', '😞'],
  [':-(', '😞'],
  [":'(", '😢'],
  [':P', '😛'],
  [':-P', '😛'],
  [':p', '😛'],
  [':O', '😮'],
  [':o', '😮'],
  [':|', '😐'],
  [':*', '😘'],
])

/**
 * convertEmoji turns a colon shortcut that ends at caret into its emoji: a
 * named one as soon as its closing colon is typed (":smile:"), an emoticon
 * (":)", ":D") once a space follows it, so that "10:30" or a URL's ":/" are
 * left alone. It returns null when there is nothing to convert.
 */
export function convertEmoji(text: string, caret: number): { text: string; caret: number } | null {
  const before = text.slice(0, caret)
  const named = /(^|[^\p{L}\p{N}_:]):([a-z0-9_+-]{1,40}):$/u.exec(before)
  if (named) {
    const emoji = emojiByShortcode.get(named[2]!)
    if (emoji) return replace(text, caret - named[2]!.length - 2, caret, emoji)
  }
  const emoticon = /(^|\s)(:\S{1,3})(\s)$/u.exec(before)
  if (emoticon) {
    const emoji = emoticons.get(emoticon[2]!)
    if (emoji) {
      const start = caret - emoticon[2]!.length - emoticon[3]!.length
      return replace(text, start, caret, emoji + emoticon[3]!)
    }
  }
  return null
}

const replace = (text: string, start: number, end: number, insertion: string) => ({
  text: text.slice(0, start) + insertion + text.slice(end),
  caret: start + insertion.length,
})
