// A link card (app.bsky.embed.external) for a post with a link and no file, as Bluesky's app makes one: the page's
// title, description and picture, from its Open Graph tags (or its <title> and description). Herald reads the page
// itself, through the same public-address guard as POST /media/from-url, so a post cannot make Herald's server read
// an internal address; a page it cannot read leaves the card out, and the post says why in its notes.
// https://docs.bsky.app/docs/advanced-guides/posts#website-card-embeds
import { ApiError } from '../../domain/errors.ts';
import { openRemoteFile, type FetchPolicy } from '../../media/fromUrl.ts';
import { imageWithin, readUpTo, type ImageBlob } from './images.ts';

/** How much of a page is read for its tags, and of its picture. */
const PAGE_BYTES = 1024 * 1024;
const PICTURE_BYTES = 10 * 1024 * 1024;
/** The lexicon's limit on a card's picture. */
export const CARD_PICTURE_BYTES = 1_000_000;
const READ_WAIT_MS = 15_000;

export interface Card {
  uri: string;
  title: string;
  description: string;
  picture?: ImageBlob;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decoded(text: string): string {
  return text
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/\s+/g, ' ')
    .trim();
}

/** The attributes of one tag (`<meta property="og:title" content="…">`), names lower-cased. */
function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([a-z:_-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi))
    out[m[1]!.toLowerCase()] = m[2] ?? m[3] ?? m[4] ?? '';
  return out;
}

/** The page's tags that make a card: Open Graph first, then the plain ones. */
export function cardTags(html: string): { title?: string; description?: string; image?: string } {
  const meta: Record<string, string> = {};
  for (const m of html.matchAll(/<meta\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const name = (a.property ?? a.name ?? '').toLowerCase();
    if (name && a.content !== undefined && meta[name] === undefined) meta[name] = decoded(a.content);
  }
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  return {
    title: meta['og:title'] || meta['twitter:title'] || (title ? decoded(title) : undefined),
    description: meta['og:description'] || meta['twitter:description'] || meta.description,
    image: meta['og:image'] || meta['twitter:image'],
  };
}

async function read(address: string, policy: FetchPolicy, max: number, cut = false) {
  const remote = await openRemoteFile(address, policy, AbortSignal.timeout(READ_WAIT_MS));
  return { url: remote.url, type: remote.contentType ?? '', bytes: await readUpTo(remote.body, max, cut) };
}

/** The card of `uri`; throws a sentence saying why there is none. */
export async function linkCard(uri: string, policy: FetchPolicy): Promise<Card> {
  let page: Awaited<ReturnType<typeof read>>;
  try {
    // A long page is cut: the tags that make a card are in its head.
    page = await read(uri, policy, PAGE_BYTES, true);
  } catch (err) {
    throw new Error(err instanceof ApiError ? err.message : `${uri} could not be read: ${(err as Error).message}`);
  }
  if (!/^text\/html|application\/xhtml/i.test(page.type))
    throw new Error(`${uri} is not a web page (it is ${page.type || 'of no stated type'}).`);
  const tags = cardTags((page.bytes ?? Buffer.alloc(0)).toString('utf8'));
  const card: Card = { uri, title: tags.title ?? page.url.hostname, description: tags.description ?? '' };
  if (tags.image) {
    try {
      const picture = await read(new URL(tags.image, page.url).href, policy, PICTURE_BYTES);
      if (picture.bytes && /^image\//i.test(picture.type))
        card.picture = await imageWithin(picture.bytes, picture.type.split(';')[0]!, CARD_PICTURE_BYTES);
    } catch {
      // A picture that cannot be read leaves a card without one, as Bluesky's app does.
    }
  }
  return card;
}
