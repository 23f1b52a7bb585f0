// The in-meeting chat (spec 002 §2, §5): LiveKit data messages, reliable,
// on the topic 'chat'; each message is created, edited, deleted or reacted
// to by its own data message. At most 800 characters. A reaction travels
// as its glyph, one of @/lib/reactions' REACTION_GLYPHS.

export const CHAT_TOPIC = 'chat'
export const CHAT_MAX = 800

export type ChatMessage = { id: string; from: string; name: string; text: string; at: string; edited?: boolean; reactions: Record<string, string> }

export type ChatData =
  | { type: 'create'; id: string; text: string; at: string; name: string }
  | { type: 'edit'; id: string; text: string }
  | { type: 'delete'; id: string }
  | { type: 'react'; id: string; reaction: string | null }

const enc = new TextEncoder()
const dec = new TextDecoder()

export const encodeChat = (d: ChatData) => enc.encode(JSON.stringify(d))

export function decodeChat(payload: Uint8Array): ChatData | undefined {
  try {
    const d = JSON.parse(dec.decode(payload)) as ChatData
    if (typeof d?.id !== 'string') return undefined
    if (d.type === 'create' && typeof d.text === 'string') return { ...d, text: d.text.slice(0, CHAT_MAX) }
    if (d.type === 'edit' && typeof d.text === 'string') return { ...d, text: d.text.slice(0, CHAT_MAX) }
    if (d.type === 'delete' || d.type === 'react') return d
  } catch {
    // Not a chat message.
  }
  return undefined
}

/** reduceChat applies a data message from `from` (an identity): only its author edits or deletes a message. */
export function reduceChat(list: ChatMessage[], d: ChatData, from: string): ChatMessage[] {
  switch (d.type) {
    case 'create':
      return list.some((m) => m.id === d.id) ? list : [...list, { id: d.id, from, name: d.name, text: d.text, at: d.at, reactions: {} }]
    case 'edit':
      return list.map((m) => (m.id === d.id && m.from === from ? { ...m, text: d.text, edited: true } : m))
    case 'delete':
      return list.filter((m) => !(m.id === d.id && m.from === from))
    case 'react':
      return list.map((m) => {
        if (m.id !== d.id || m.from === from) return m
        const reactions = { ...m.reactions }
        if (d.reaction) reactions[from] = d.reaction
        else delete reactions[from]
        return { ...m, reactions }
      })
  }
}
