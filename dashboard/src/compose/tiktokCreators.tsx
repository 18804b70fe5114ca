// TikTok's required posting experience: each chosen creator by nickname and avatar, and the choices their
// accounts allow now (GET /accounts/{id}/posting-options, TikTok's creator_info as the plan reads it).
import { useQueries } from '@tanstack/react-query';
import type { Account, Schemas } from '../api.ts';
import { postingOptionsQuery } from '../queries/accounts.ts';
import { ErrorNote } from '../ui.tsx';
import { longestVideoWords, TIKTOK_AUDIENCES, TIKTOK_UNAUDITED, tiktokOptionsFailed } from '../words/settingWords.ts';

type Options = Schemas['PostingOptions'];
type Level = Options['privacyLevels'][number];
const LEVELS = Object.keys(TIKTOK_AUDIENCES) as Level[];

/** What the chosen TikTok accounts allow together: the levels all offer, the switches any turned off. */
export interface TiktokAllowed {
  creators: { account: Account; options?: Options; error?: unknown }[];
  /** undefined until every account answered (or when one could not be asked: the plan still checks). */
  levels?: string[];
  switchedOff: { disableComment: boolean; disableDuet: boolean; disableStitch: boolean };
  maxVideoSeconds?: number;
}

export function useTiktokAllowed(accounts: Account[]): TiktokAllowed {
  const answers = useQueries({
    queries: accounts.map((a) => postingOptionsQuery(a.id)),
  });
  const known = answers.flatMap((q) => (q.data ? [q.data] : []));
  const settled = known.length === accounts.length;
  return {
    creators: accounts.map((account, i) => ({ account, options: answers[i]?.data, error: answers[i]?.error })),
    levels: settled ? LEVELS.filter((l) => known.every((o) => o.privacyLevels.includes(l))) : undefined,
    switchedOff: {
      disableComment: known.some((o) => o.commentDisabled),
      disableDuet: known.some((o) => o.duetDisabled),
      disableStitch: known.some((o) => o.stitchDisabled),
    },
    maxVideoSeconds: known.length ? Math.min(...known.map((o) => o.maxVideoSeconds)) : undefined,
  };
}

/** Who the post goes to on TikTok, as TikTok shows the creator. */
export function TiktokCreators({ allowed }: { allowed: TiktokAllowed }) {
  return (
    <div className="tiktok-creators">
      <ul>
        {allowed.creators.map(({ account, options }) => {
          const name = options?.nickname ?? account.displayName;
          return (
            <li key={account.id} className="tiktok-creator">
              {options?.avatarUrl ? (
                <img src={options.avatarUrl} alt={`${name}’s TikTok avatar`} width={32} height={32} />
              ) : (
                <span className="tiktok-initial" aria-hidden="true">
                  {name.charAt(0).toUpperCase()}
                </span>
              )}
              <span>{name}</span>
            </li>
          );
        })}
      </ul>
      {allowed.creators.map(({ account, error }) => (
        <ErrorNote key={account.id} error={error} title={tiktokOptionsFailed(account.displayName)} />
      ))}
      {allowed.creators.map(({ account, options }) =>
        options?.unauditedApp ? (
          <p key={account.id} className="muted small">
            {TIKTOK_UNAUDITED.standing(options.nickname, options.unauditedApp)}
          </p>
        ) : null,
      )}
      {allowed.maxVideoSeconds !== undefined && (
        <p className="muted small">{longestVideoWords(allowed.maxVideoSeconds)}</p>
      )}
    </div>
  );
}
