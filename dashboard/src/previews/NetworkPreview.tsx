// A post as its network will show it: a light mock in CSS (no screenshots, no logos) built from the rules in
// previewRules.ts. Each preview is a region named "How it will look on <network>"; pictures carry alt text.
import { useId, type CSSProperties, type ReactNode } from 'react';
import type { TextPart } from '../../../domain/textUnits.ts';
import { textParts } from '../../../domain/textUnits.ts';
import { aspect } from '../../../networks/rules.ts';
import type { Platform, Post } from '../api.ts';
import { useMediaItems } from '../queries/media.ts';
import { labelOf } from '../networks.ts';
import { PREVIEW_WORDS as W } from '../words/previewWords.ts';
import {
  aspectText,
  coverFit,
  facebookFrame,
  facebookType,
  type Fit,
  INSTAGRAM_CAPTION_SHOWN,
  instagramFrame,
  instagramType,
  linkHost,
  type PreviewMedia,
  shortened,
  threadsParts,
  YOUTUBE_TITLE_SHOWN,
  youtubeShort,
  youtubeVisibility,
} from './previewRules.ts';

/** What a preview shows: one network's text (its override applied), files and settings. */
export interface PreviewPost {
  platform: Platform;
  /** The accounts it goes to on this network; the first one's name heads the preview. */
  accountNames: string[];
  text: string;
  title: string;
  mediaIds: string[];
  settings: Record<string, unknown>;
  /** The time in words, as a post's head shows it. */
  when?: string;
}

/** A stored post's preview: its own text, title, files and settings, to `accountName`, at `when` (in words). */
export const previewOfPost = (
  post: Pick<Post, 'platform' | 'text' | 'title' | 'mediaIds' | 'perPlatform'>,
  accountName: string,
  when: string,
): PreviewPost => ({
  platform: post.platform,
  accountNames: [accountName],
  text: post.text,
  title: post.title ?? '',
  mediaIds: post.mediaIds,
  settings: post.perPlatform as Record<string, unknown>,
  when,
});

/** The networks that have a preview. */
export const PREVIEWED: readonly Platform[] = ['instagram', 'threads', 'youtube', 'facebook'];

interface Shown {
  name: string;
  label: string;
  post: PreviewPost;
  media: PreviewMedia[];
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="pv-avatar" aria-hidden="true">
      {Array.from(name.trim())[0]?.toUpperCase() ?? '?'}
    </span>
  );
}

function Head({ name, children, when }: { name: string; children?: ReactNode; when?: string }) {
  return (
    <div className="pv-head">
      <Avatar name={name} />
      <span className="pv-who">
        <strong>{name}</strong>
        {children}
        {when && <span className="pv-when">{when}</span>}
      </span>
    </div>
  );
}

/** Links, #tags and @mentions in the network's link colour; a mock, so nothing here is a real link. */
function Rich({ parts, tag = (t) => t }: { parts: TextPart[]; tag?: (text: string) => string }) {
  return parts.map((part, i) =>
    part.kind === 'text' ? (
      part.text
    ) : (
      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text never reorder.
      <span key={i} className={`pv-${part.kind}`}>
        {part.kind === 'hashtag' ? tag(part.text) : part.text}
      </span>
    ),
  );
}

/**
 * A picture or video's first frame in the network's frame. Where the frame cuts some of it, the whole is
 * shown with the cut part faded, so a person sees what will be lost; `contain` shows it whole with bars.
 */
function Frame({
  media,
  fit,
  alt,
  contain = false,
  children,
}: {
  media: PreviewMedia | undefined;
  fit: Fit;
  alt: string;
  contain?: boolean;
  children?: ReactNode;
}) {
  const cut = !contain && fit.cutAcross + fit.cutDown > 0.01;
  const shape = cut ? aspect(media!)! : fit.frame;
  const window: CSSProperties = {
    left: `${fit.cutAcross * 50}%`,
    right: `${fit.cutAcross * 50}%`,
    top: `${fit.cutDown * 50}%`,
    bottom: `${fit.cutDown * 50}%`,
  };
  return (
    <div className={`pv-frame ${contain ? 'pv-contain' : ''}`} style={{ '--frame': shape } as CSSProperties}>
      {media?.thumbnailUrl ? (
        <img src={media.thumbnailUrl} alt={alt} />
      ) : (
        <span className="pv-blank">{media && W.processing}</span>
      )}
      {cut && <span className="pv-window" style={window} aria-hidden="true" />}
      {children}
    </div>
  );
}

function CutNote({ label, fit, contain }: { label: string; fit: Fit; contain?: boolean }) {
  if (contain || fit.cutAcross + fit.cutDown <= 0.01) return null;
  return <p className="pv-note">{W.cut(label, aspectText(fit.frame), fit.cutAcross, fit.cutDown)}</p>;
}

function Instagram({ name, label, post, media }: Shown) {
  const type = instagramType(post.settings, media);
  const first = media[0];
  const fit = coverFit(first, instagramFrame(type, first));
  const caption = shortened(post.text, INSTAGRAM_CAPTION_SHOWN);
  const frame = aspectText(fit.frame);
  return (
    <>
      <Head name={name} when={post.when} />
      {post.mediaIds.length === 0 ? (
        <p className="pv-note">{W.noMedia(label)}</p>
      ) : (
        <>
          <Frame
            media={first}
            fit={fit}
            alt={W.alt(
              first?.filename ?? '',
              frame,
              post.mediaIds.length > 1 ? { at: 1, of: post.mediaIds.length } : undefined,
            )}
          />
          {type === 'carousel' && (
            <div className="pv-dots" role="img" aria-label={W.carouselPosition(post.mediaIds.length)}>
              {post.mediaIds.map((id, i) => (
                <span key={id} className={i === 0 ? 'on' : ''} />
              ))}
            </div>
          )}
          <CutNote label={label} fit={fit} />
        </>
      )}
      {type === 'story' ? (
        <p className="pv-note">{W.story}</p>
      ) : (
        post.text.trim() && (
          <p className="pv-text">
            <strong>{name}</strong> <Rich parts={textParts(caption.text)} />
            {caption.cut && <span className="pv-more">… {W.more}</span>}
          </p>
        )
      )}
    </>
  );
}

function Threads({ name, post, media }: Shown) {
  const { topic, parts } = threadsParts(post.text, post.settings.topicTag);
  const given = typeof post.settings.topicTag === 'string' && post.settings.topicTag.trim();
  const link = typeof post.settings.link === 'string' && post.settings.link ? post.settings.link : undefined;
  return (
    <>
      <Head name={name} when={post.when}>
        {given && topic && <span className="pv-topic">› {topic}</span>}
      </Head>
      {post.text.trim() && (
        <p className="pv-text pv-indent">
          <Rich parts={parts} tag={(t) => t.slice(1)} />
        </p>
      )}
      {media.length > 0 && (
        <div className={`pv-indent ${media.length > 1 ? 'pv-strip' : 'pv-single'}`}>
          {media.map((m, i) => (
            <Frame
              key={m.id}
              media={m}
              fit={coverFit(m, aspect(m) ?? 1)}
              alt={W.alt(
                m.filename,
                aspectText(aspect(m) ?? 1),
                media.length > 1 ? { at: i + 1, of: media.length } : undefined,
              )}
            />
          ))}
        </div>
      )}
      {link && media.length === 0 && <LinkCard link={link} />}
    </>
  );
}

function YouTube({ name, post, media }: Shown) {
  const video = media[0];
  // A thumbnail set through the API (thumbnailMediaId) is what YouTube shows instead of a frame of the video.
  const chosen = post.settings.thumbnailMediaId;
  const [thumbnail] = useMediaItems(typeof chosen === 'string' ? [chosen] : []);
  const shown = thumbnail ?? video;
  const short = youtubeShort(video);
  const fit = coverFit(undefined, short ? 9 / 16 : 16 / 9);
  const title = shortened(post.title, YOUTUBE_TITLE_SHOWN);
  const visibility = youtubeVisibility(post.settings);
  return (
    <>
      {post.mediaIds.length === 0 ? (
        <p className="pv-note">{W.noMedia('YouTube')}</p>
      ) : (
        <Frame media={shown} fit={fit} alt={W.alt(shown?.filename ?? '', aspectText(fit.frame))} contain>
          {video?.durationSeconds != null && (
            <span className="pv-badge pv-duration">{short ? W.short : W.duration(video.durationSeconds)}</span>
          )}
        </Frame>
      )}
      <div className="pv-head pv-yt">
        <Avatar name={name} />
        <span className="pv-who">
          <span className="pv-title">
            {post.title.trim() ? `${title.text}${title.cut ? '…' : ''}` : <span className="pv-muted">{W.noTitle}</span>}
          </span>
          <span className="pv-when">
            {name} · {W.visibility[visibility] ?? visibility}
          </span>
        </span>
      </div>
    </>
  );
}

function LinkCard({ link }: { link: string }) {
  return (
    <div className="pv-card">
      <span className="pv-card-host">{linkHost(link)}</span>
      <span className="pv-card-link">{link}</span>
    </div>
  );
}

function Facebook({ name, label, post, media }: Shown) {
  const type = facebookType(post.settings, media);
  const first = media[0];
  const fit = coverFit(first, facebookFrame(type, first));
  const link = typeof post.settings.link === 'string' && post.settings.link ? post.settings.link : undefined;
  const grid = type === 'photo' && media.length > 1;
  return (
    <>
      <Head name={name} when={post.when} />
      {post.text.trim() && type !== 'story' && (
        <p className="pv-text">
          <Rich parts={textParts(post.text)} />
        </p>
      )}
      {(type === 'link' || type === 'text') && link && (
        <>
          <LinkCard link={link} />
          <p className="pv-note">{W.linkCard}</p>
        </>
      )}
      {grid ? (
        <div className="pv-grid">
          {media.slice(0, 4).map((m, i) => (
            <Frame
              key={m.id}
              media={m}
              fit={coverFit(m, 1)}
              alt={W.alt(m.filename, aspectText(1), { at: i + 1, of: media.length })}
            >
              {i === 3 && media.length > 4 && <span className="pv-rest">+{media.length - 4}</span>}
            </Frame>
          ))}
        </div>
      ) : (
        first && (
          <>
            <Frame media={first} fit={fit} alt={W.alt(first.filename, aspectText(fit.frame))} />
            <CutNote label={label} fit={fit} />
          </>
        )
      )}
    </>
  );
}

const BODIES: Partial<Record<Platform, (shown: Shown) => ReactNode>> = {
  instagram: Instagram,
  threads: Threads,
  youtube: YouTube,
  facebook: Facebook,
};

export function NetworkPreview({ post, live = false }: { post: PreviewPost; live?: boolean }) {
  const id = useId();
  const loaded = useMediaItems(post.mediaIds).filter((m): m is NonNullable<typeof m> => Boolean(m));
  const Body = BODIES[post.platform];
  if (!Body) return null;
  const label = labelOf(post.platform);
  const [name = label, ...others] = post.accountNames;
  return (
    <section className={`pv pv-${post.platform}`} aria-labelledby={id}>
      <h3 id={id} className="pv-name">
        {(live ? W.regionLive : W.region)(label)}
      </h3>
      <div className="pv-post">
        <Body name={name} label={label} post={post} media={loaded} />
      </div>
      {others.length > 0 && <p className="pv-note">{W.alsoFor(others)}</p>}
    </section>
  );
}
