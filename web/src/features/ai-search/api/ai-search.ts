import { experimental_streamedQuery as streamedQuery, queryOptions, useQuery } from '@tanstack/react-query'
import { api, unwrap, type Schemas } from '@/api/client'
import { readNdjson } from '@/lib/ndjson'

export type AISearchEvent = Schemas['AISearchEvent']
export type AISearchSource = Schemas['AISearchSource']

/**
 * Answer is one question's answer as it streams in (spec 001 §3 "AI search
 * result", §4 "AI search flow"): the retrieved posts (`threads`), the text
 * so far (each `completion` appended), and, once the `answer` event came,
 * the final text, the ids of the posts it cites and those posts alone
 * (`sources`), numbered as the final text's markers cite them.
 */
export type Answer = {
  searchId?: string
  /** The retrieved posts; undefined until the threads event. */
  posts?: AISearchSource[]
  text: string
  final?: { answer: string; citations: string[]; sources: AISearchSource[]; createdOn?: string }
}

export const EMPTY_ANSWER: Answer = { text: '' }

/** reduceAnswer applies one event of the stream to the answer so far. */
export function reduceAnswer(a: Answer, e: AISearchEvent): Answer {
  const searchId = e.searchId || a.searchId
  switch (e.type) {
    case 'threads':
      return { ...a, searchId, posts: e.posts ?? [] }
    case 'completion':
      return { ...a, searchId, text: a.text + (e.text ?? '') }
    case 'answer': {
      const answer = e.answer ?? a.text
      return { ...a, searchId, text: answer, final: { answer, citations: e.citations ?? [], sources: e.posts ?? [], createdOn: e.createdOn } }
    }
    default:
      return a
  }
}

const isEvent = (v: unknown): v is AISearchEvent => typeof v === 'object' && v !== null && typeof (v as { type?: unknown }).type === 'string'

/**
 * streamAISearch asks GET /api/ai/search/{channelId}?q= (or, with searchId,
 * the follow-up GET /api/ai/search/{channelId}/{searchId}?q=) and yields the
 * events of its NDJSON answer as they arrive. It goes through the API client,
 * so it carries the bearer header and a 401 signs out; an error answered
 * before the stream (400, 403, 404) throws ApiError. Aborting signal stops
 * the request.
 */
export async function* streamAISearch(channelId: string, q: string, searchId: string | undefined, signal?: AbortSignal): AsyncGenerator<AISearchEvent> {
  const res = searchId
    ? await api.GET('/api/ai/search/{channelId}/{searchId}', {
        params: { path: { channelId, searchId }, query: { q } },
        parseAs: 'stream',
        headers: { Accept: 'application/x-ndjson' },
        signal,
      })
    : await api.GET('/api/ai/search/{channelId}', {
        params: { path: { channelId }, query: { q } },
        parseAs: 'stream',
        headers: { Accept: 'application/x-ndjson' },
        signal,
      })
  const body = unwrap(res) as unknown as ReadableStream<Uint8Array> | null
  if (!body) return
  for await (const line of readNdjson(body, { signal })) {
    if (isEvent(line)) yield line
  }
}

/** A question of the conversation: the first (no searchId) or a follow-up of searchId. */
export type Question = { q: string; searchId?: string; turn: number }

/**
 * aiSearchQuery: ['ai-search', channelId, {q, searchId, turn}], one question's
 * streamed answer. The cache is updated as each line arrives
 * (streamedQuery), and kept with infinite staleness (spec 001 §9): an
 * answer is never asked for again, since asking again is a new search.
 */
export const aiSearchQuery = (channelId: string, question: Question) =>
  queryOptions({
    queryKey: ['ai-search', channelId, { q: question.q, searchId: question.searchId ?? null, turn: question.turn }],
    queryFn: streamedQuery<AISearchEvent, Answer>({
      streamFn: ({ signal }) => streamAISearch(channelId, question.q, question.searchId, signal),
      reducer: reduceAnswer,
      initialValue: EMPTY_ANSWER,
    }),
    staleTime: Infinity,
    // Kept while the conversation is (until it is cleared or the session
    // ends), so that the forum shows it again after a citation was opened.
    gcTime: Infinity,
    // A retry would ask the model again; the person can, with the retry button.
    retry: false,
  })

export const useAISearch = (channelId: string, question: Question) => useQuery(aiSearchQuery(channelId, question))
