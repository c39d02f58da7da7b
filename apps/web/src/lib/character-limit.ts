/**
 * Where a text stands against its length limit (a caption, a comment), counted as the server
 * counts it: the trimmed text's characters as code points (zod's `.max` after `.trim()`; an
 * emoji is one, where an input's `maxLength` counts it as two and cuts earlier).
 */
export interface CharacterLimit {
  count: number;
  max: number;
  /** Near the limit (from `showFrom` characters): the counter shows. */
  shown: boolean;
  /** Over the limit: the text is refused, on the screen and by the server. */
  over: boolean;
  /** "423/500". */
  label: string;
}

/** The counter shows from this share of the limit on (400 of 500). */
export const COUNTER_FROM_SHARE = 0.8;

export function characterLimit(
  text: string,
  max: number,
  showFrom = Math.floor(max * COUNTER_FROM_SHARE),
): CharacterLimit {
  const count = [...text.trim()].length;
  return { count, max, shown: count >= showFrom, over: count > max, label: `${count}/${max}` };
}
