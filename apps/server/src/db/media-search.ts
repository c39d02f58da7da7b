import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import { media } from './schema.js';

/**
 * One emoji: a code point of the pictograph blocks (misc technical, misc symbols, dingbats, misc
 * symbols and arrows, and U+1F000–U+1FAFF). Migration 0030's `search_words` names the same ones.
 */
const EMOJI = /([\u2300-\u23FF\u2600-\u27BF\u2B00-\u2BFF\u{1F000}-\u{1FAFF}])/u;
/** The emoji presentation selectors: no part of a word (so "❤️" is "❤"). */
const PRESENTATION = /[\uFE0E\uFE0F]/gu;

/** An emoji as the word the index holds for it (migration 0030): 🎉 is `emoji1f389`. */
export function emojiWord(emoji: string): string {
  return `emoji${emoji.codePointAt(0)!.toString(16)}`;
}

/**
 * The words of a search as the media search looks for them (migration 0030 `search_words` makes
 * the same of a caption or name): runs of letters, combining marks and digits, lower-cased (what
 * PostgreSQL's parser makes words of in the 'simple' configuration once punctuation is a space:
 * "Priya's <b>birthday</b>!" is priya, s, b, birthday, b), and each emoji as a word of its own
 * (`emojiWord`), in the order typed. Anything else separates words.
 */
export function searchWords(search: string): string[] {
  return search
    .normalize('NFC')
    .toLowerCase()
    .replace(PRESENTATION, ' ')
    .split(EMOJI)
    .flatMap((part, i) =>
      // split with a capturing group: the odd parts are the emoji.
      i % 2 === 1 ? [emojiWord(part)] : (part.match(/[\p{L}\p{M}\p{N}]+/gu) ?? []),
    );
}

/**
 * The text search query (`to_tsquery('simple', …)`) for a search: every word, the last also as
 * the start of a word ("priya sh" finds "Priya Sharma"; "caption 12" finds "Caption 120"), as
 * search boxes that search while one types do (not an emoji: it is whole). Undefined when the
 * search has no words ("%", "!!"): nothing matches it. Each word is quoted and holds only
 * letters, marks and digits, so the query cannot be malformed.
 */
export function wordQuery(search: string): string | undefined {
  const words = searchWords(search);
  if (words.length === 0) return undefined;
  const last = words.length - 1;
  return words
    .map((word, i) => `'${word}'${i === last && !isEmojiWord(word) ? ':*' : ''}`)
    .join(' & ');
}

function isEmojiWord(word: string): boolean {
  return /^emoji[0-9a-f]{4,5}$/.test(word);
}

/** Where the media search looks: the wall's items, or every uploaded item (the staff views). */
export type SearchScope = 'wall' | 'uploaded';

/**
 * The media of `scope` whose caption, owner's name, organization's name or booth's name holds
 * every word of `query` (a `wordQuery`, or a placeholder for one in a prepared statement), once
 * each, as `(id, created_at)` rows: the SQL function `media_matching` (migration 0026; its
 * words `search_words` since 0030), four lookups of the words indexes (the caption's through
 * `media_wall_caption_words_idx` or `media_caption_words_idx`, then the media of each matching user, organization or booth by
 * their indexes) with a plan kept per connection. Word search rather than substring search
 * (ILIKE over trigram indexes until 0026): a phrase of common words made the trigram index read
 * every captioned item's entry, where a word's entry lists only the items holding it
 * (docs/benchmarks.md, "Word search"). `within` narrows further (a condition on `media`). Used
 * as a CTE by the wall and the staff media views; a search without words (`wordQuery`
 * undefined) is answered as an empty page without asking. The function writes its two scopes
 * out as two statements, the wall's predicate as literal text: a kept (generic) plan uses a
 * partial index (`media_wall_caption_words_idx`) only when the query states its predicate.
 */
export function mediaMatching(query: string | Placeholder, scope: SearchScope, within?: SQL): SQL {
  const found = sql`media_matching(${query}, ${sql.raw(scope === 'wall' ? 'true' : 'false')})`;
  if (!within) return sql`select id, created_at from ${found}`;
  return sql`select found.id, found.created_at from ${found} found
    join ${media} on ${media.id} = found.id where ${within}`;
}
