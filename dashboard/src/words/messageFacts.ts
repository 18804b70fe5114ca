// What the dashboard's sentences need from a server message. The contract's Issue and Error carry only
// {code, message, hint}, so the numbers, sizes, durations and the field named are read from the message as the
// server's rules write it (networks/*/rules.ts, domain/when.ts); words.test.ts runs those rules to keep them in step.

/**
 * The counts of a message in order, as written: "616", or "more than 5000" where the rules stop counting (they
 * count to ten times a limit). "UTF-8", "mediaIds[0]", "1080×1920" and ratios like "9:16" are not counts.
 */
export function countsIn(message: string): string[] {
  return [...message.matchAll(/(?:more than )?(?<![\w.\-[:×])\d+(?:\.\d+)?(?![\w\-\]:×]|\.\d)/g)].map((m) => m[0]);
}

/** Sizes and durations as the rules write them: "12.3 MB", "8000000 bytes", "90.1 seconds", "15 minutes". */
export function quantitiesIn(message: string): string[] {
  return [...message.matchAll(/\d+(?:\.\d+)? (?:minutes(?: \d+(?:\.\d+)? seconds)?|seconds|MB|bytes)/g)].map(
    (m) => m[0],
  );
}

/** A picture's size as "1080×1920", when the message gives one. */
export function dimensionsIn(message: string): string | undefined {
  return /\d+×\d+/.exec(message)?.[0];
}

const ORDINALS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** The file a message names by its place in the post ("mediaIds[1]"), as a person counts it. */
export function fileNamedIn(message: string): string {
  const index = /mediaIds\[(\d+)\]/.exec(message)?.[1];
  if (/thumbnailMediaId/.test(message)) return 'the thumbnail';
  if (index === undefined) return 'a file of this post';
  const n = Number(index);
  return ORDINALS[n] ? `the ${ORDINALS[n]} file` : `file ${n + 1}`;
}

/** The setting a message names (`perPlatform.threads.topicTag` -> `topicTag`). */
export function settingNamedIn(message: string): string | undefined {
  return /perPlatform\.\w+\.(\w+)/.exec(message)?.[1];
}

/**
 * The field a validation message starts with (`email` must be…, name must be…) and the rest of the sentence;
 * undefined when the message does not start with a field.
 */
export function leadingField(message: string): { field: string; rest: string } | undefined {
  const m = /^`?([a-z][\w.[\]]*)`? (.+)$/i.exec(message.trim());
  if (!m || /^(The|This|A|An|No|Your)$/.test(m[1]!)) return undefined;
  return { field: m[1]!, rest: m[2]! };
}

/** True when a sentence still speaks API: a field path, a code, an id, backticks or an ISO timestamp. */
export function speaksApi(text: string): boolean {
  return /`|[a-z]+_[a-z_]+|\b(med|pst|acc|fld|grp|key|usr|wsp)_\w|\d{4}-\d\d-\d\dT|\w\.\w+\.\w|\w\[\d+\]/.test(text);
}
