// The network settings a post carries (its perPlatform entry, defaults included), in words: "Category: People &
// Blogs", never "22".
import type { Post } from '../api.ts';
import { settingLines } from '../words/settingWords.ts';

export function PostSettings({ post }: { post: Post }) {
  const lines = settingLines(post.perPlatform);
  if (lines.length === 0) return null;
  return (
    <dl className="post-settings">
      {lines.map((l) => (
        <div key={l.label}>
          <dt>{l.label}</dt>
          <dd>{l.value}</dd>
        </div>
      ))}
    </dl>
  );
}
