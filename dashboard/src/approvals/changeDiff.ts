// What a waiting change does to a post, for the approver: the text word by word (kept, removed, added) and the files
// added or removed.

export interface TextPiece {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Words and the spaces after them, so that joining the pieces gives each text back exactly. */
const words = (text: string) => text.match(/\S+\s*|\s+/g) ?? [];

/**
 * The text from `before` to `after` as pieces, by the longest common run of words; neighbours of one kind are joined.
 * Posts are short (a few thousand words at most), so the table's size is no concern.
 */
export function textDiff(before: string, after: string): TextPiece[] {
  const a = words(before);
  const b = words(after);
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const common = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      common[i]![j] = a[i] === b[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const pieces: TextPiece[] = [];
  const push = (kind: TextPiece['kind'], text: string) => {
    const last = pieces.at(-1);
    if (last?.kind === kind) last.text += text;
    else pieces.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push('same', a[i]!);
      i++;
      j++;
      // A word removed is told before the word that replaces it.
    } else if (i < a.length && (j === b.length || common[i + 1]![j]! >= common[i]![j + 1]!)) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  return pieces;
}

/** The files a change adds and removes, by id, in their order. */
export function filesDiff(before: string[], after: string[]): { added: string[]; removed: string[] } {
  return { added: after.filter((id) => !before.includes(id)), removed: before.filter((id) => !after.includes(id)) };
}
