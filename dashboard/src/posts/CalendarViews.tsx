// The calendar's three views over the same cards: a month of day cells, a week of hour slots (both tables, so a
// screen reader hears the weekday and hour of each cell) and a list by day. A busy cell shows its first cards and a
// "+N more" button opening the whole cell in a dialog; cards stack at full width, never side by side as slivers.
import type { DateTime } from 'luxon';
import { memo, useState, type DragEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { labelOf } from '../networks.ts';
import { NetworkMark } from '../NetworkMark.tsx';
import { Button, Dialog } from '../ui.tsx';
import { STATUS_WORDS, statusesText } from '../words/statusWords.ts';
import { type CalendarCard, firstWords, marksOf } from './calendarCards.ts';

/** What every card needs from the page: names, pictures, opening a group, and the drag of a queued card. */
export interface CardContext {
  nameOf: (accountId: string) => string;
  thumbs: Map<string, string>;
  /** A card of several posts made together opens them in a dialog. */
  onOpenGroup: (group: { card: CalendarCard; opener: HTMLElement }) => void;
  onDragStart: (card: CalendarCard) => void;
  /** A card dropped on a day (month) or on an hour of a day (week). */
  onDrop: (day: string, hour?: number) => void;
}

const dayName = (day: DateTime) => day.setLocale('en-GB').toFormat('cccc d LLLL');

/**
 * A card is one control: a link to its post, or, for posts made together, a button opening them as a group. Its
 * networks are one mark each with a count, named in words with the card's day, time, status and first words.
 */
export const PostCard = memo(function PostCard({
  card,
  ctx,
  compact,
}: {
  card: CalendarCard;
  ctx: CardContext;
  compact?: boolean;
}) {
  const first = card.posts[0]!;
  const thumb = first.mediaIds[0] && ctx.thumbs.get(first.mediaIds[0]);
  const movable = card.posts.every((p) => p.status === 'queued');
  const agreed = card.posts.every((p) => p.status === first.status);
  const words = firstWords(first.text || first.title || '', compact ? 48 : 140);
  const group = card.posts.length > 1;
  const className = `cal-card${compact ? ' cal-compact' : ''}${movable ? ' cal-movable' : ''}`;
  const drag = movable
    ? {
        draggable: true,
        onDragStart: (e: DragEvent) => {
          e.dataTransfer.effectAllowed = 'move';
          e.dataTransfer.setData('text/plain', card.key);
          ctx.onDragStart(card);
        },
      }
    : { draggable: false };
  const content = (
    <>
      <span className="cal-card-top">
        <span className="sr-only">
          {group ? `${card.posts.length} posts made together, ` : ''}
          {card.dayWords},{' '}
        </span>
        <time dateTime={card.publishAt}>{card.time}</time>
        <span className="sr-only">, </span>
        <span className={`cal-status cal-status-${agreed ? first.status : 'mixed'}`}>
          {statusesText(card.posts.map((p) => p.status))}
        </span>
      </span>
      <span className="cal-card-body">
        {thumb && <img className="cal-thumb" src={thumb} alt="" loading="lazy" width={36} height={36} />}
        <span className="sr-only">: </span>
        <span className={`cal-words${words ? '' : ' muted'}`}>{words || 'No text'}</span>
      </span>
      <span className="cal-posts">
        <span className="sr-only">; on </span>
        {marksOf(card.posts).map((m, i) => (
          <span key={m.platform} className={`cal-post cal-${m.status}`}>
            {i > 0 && <span className="sr-only">, </span>}
            <NetworkMark platform={m.platform} decorative size={18} />
            {m.posts.length > 1 && (
              <span className="cal-count" aria-hidden="true">
                ×{m.posts.length}
              </span>
            )}
            <span className={compact ? 'sr-only' : 'cal-account'}>
              {labelOf(m.platform)}
              {m.posts.length > 1 ? ` (${m.posts.length} accounts)` : ` · ${ctx.nameOf(m.posts[0]!.accountId)}`}
            </span>
          </span>
        ))}
      </span>
    </>
  );
  return group ? (
    <button
      type="button"
      className={className}
      onClick={(e) => ctx.onOpenGroup({ card, opener: e.currentTarget })}
      {...drag}
    >
      {content}
    </button>
  ) : (
    <Link to={`/posts/${first.id}`} className={className} {...drag}>
      {content}
    </Link>
  );
});

/** The posts of one card made together, each a link to its own page. */
export function GroupDialog({
  card,
  opener,
  ctx,
  onClose,
}: {
  card: CalendarCard;
  opener: HTMLElement;
  ctx: CardContext;
  onClose: () => void;
}) {
  const first = card.posts[0]!;
  return (
    <Dialog
      title={`${card.posts.length} posts made together`}
      description={`${card.dayWords} at ${card.time} · ${statusesText(card.posts.map((p) => p.status))}`}
      wide
      opener={opener}
      onClose={onClose}
    >
      <p className="cal-group-words">{firstWords(first.text || first.title || '', 280) || 'No text'}</p>
      <ul className="cal-group-posts">
        {card.posts.map((p) => (
          <li key={p.id} className="cal-group-post">
            <Link to={`/posts/${p.id}`}>
              <NetworkMark platform={p.platform} decorative size={18} />
              {labelOf(p.platform)} · {ctx.nameOf(p.accountId)}
            </Link>
            <span className={`cal-status cal-status-${p.status}`}>{STATUS_WORDS[p.status]}</span>
          </li>
        ))}
      </ul>
      <div className="dialog-actions">
        <Button onClick={onClose}>Close</Button>
      </div>
    </Dialog>
  );
}

/** The first cards of a cell and, past `max`, a "+N more" button that opens all of them in a dialog. */
function CellCards({
  cards,
  ctx,
  max,
  title,
}: {
  cards: CalendarCard[];
  ctx: CardContext;
  max: number;
  title: string;
}) {
  const shown = cards.length > max ? cards.slice(0, max - 1) : cards;
  const hidden = cards.length - shown.length;
  return (
    <>
      {shown.length > 0 && (
        <ul className="cal-cell-cards">
          {shown.map((card) => (
            <li key={card.key}>
              <PostCard card={card} ctx={ctx} compact />
            </li>
          ))}
        </ul>
      )}
      {hidden > 0 && (
        <MoreDialog title={title} cards={cards} ctx={ctx}>
          +{hidden} more<span className="sr-only"> on {title}</span>
        </MoreDialog>
      )}
    </>
  );
}

function MoreDialog({
  title,
  cards,
  ctx,
  children,
}: {
  title: string;
  cards: CalendarCard[];
  ctx: CardContext;
  children: ReactNode;
}) {
  // Open: the button that opened it, where focus goes back on close.
  const [opener, setOpener] = useState<HTMLElement>();
  const posts = cards.reduce((n, c) => n + c.posts.length, 0);
  const close = () => setOpener(undefined);
  return (
    <>
      <button
        type="button"
        className="cal-more"
        aria-haspopup="dialog"
        aria-expanded={Boolean(opener)}
        onClick={(e) => setOpener(e.currentTarget)}
      >
        {children}
      </button>
      {opener && (
        <Dialog
          title={title}
          description={`${posts === 1 ? '1 post' : `${posts} posts`}, in time order.`}
          wide
          opener={opener}
          onClose={close}
        >
          <CardList cards={cards} ctx={ctx} />
          <div className="dialog-actions">
            <Button onClick={close}>Close</Button>
          </div>
        </Dialog>
      )}
    </>
  );
}

function CardList({ cards, ctx }: { cards: CalendarCard[]; ctx: CardContext }) {
  return (
    <ul className="cal-list-cards">
      {cards.map((card) => (
        <li key={card.key}>
          <PostCard card={card} ctx={ctx} />
        </li>
      ))}
    </ul>
  );
}

/** Drop-target props for a cell: a queued card dragged over it may land there. */
function dropTarget(ctx: CardContext, day: string, hour?: number) {
  return {
    onDragOver: (e: DragEvent) => e.preventDefault(),
    onDrop: (e: DragEvent) => {
      e.preventDefault();
      ctx.onDrop(day, hour);
    },
  };
}

function WeekdayHeads({ days }: { days: DateTime[] }) {
  return (
    <>
      {days.map((d) => (
        <th key={d.toISODate()} scope="col" abbr={d.setLocale('en-GB').toFormat('cccc')}>
          {d.setLocale('en-GB').toFormat('ccc')}
        </th>
      ))}
    </>
  );
}

interface ViewProps {
  days: DateTime[];
  cardsByDay: Map<string, CalendarCard[]>;
  ctx: CardContext;
  today: string;
}

export function MonthView({ days, cardsByDay, ctx, today, month }: ViewProps & { month: number }) {
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));
  return (
    <table className="cal-month">
      <thead>
        <tr>
          <WeekdayHeads days={weeks[0]!} />
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]!.toISODate()}>
            {week.map((d) => {
              const day = d.toISODate()!;
              const other = d.month !== month ? ' cal-other' : '';
              return (
                <td
                  key={day}
                  className={`cal-day${other}${day === today ? ' cal-today' : ''}`}
                  {...dropTarget(ctx, day)}
                >
                  <p className="cal-day-number">
                    <span aria-hidden="true">{d.day}</span>
                    <span className="sr-only">{dayName(d)}</span>
                  </p>
                  <CellCards cards={cardsByDay.get(day) ?? []} ctx={ctx} max={3} title={dayName(d)} />
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function WeekView({ days, cardsByDay, ctx, today }: ViewProps) {
  const hours = Array.from({ length: 24 }, (_, h) => h);
  const slots = new Map<string, CalendarCard[]>();
  for (const d of days)
    for (const card of cardsByDay.get(d.toISODate()!) ?? []) {
      const key = `${card.day} ${card.hour}`;
      slots.set(key, [...(slots.get(key) ?? []), card]);
    }
  return (
    <div className="cal-week-scroll">
      <table className="cal-week">
        <thead>
          <tr>
            <td />
            {days.map((d) => (
              <th key={d.toISODate()} scope="col" className={d.toISODate() === today ? 'cal-today' : undefined}>
                {d.setLocale('en-GB').toFormat('ccc d')}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {hours.map((h) => (
            <tr key={h}>
              <th scope="row">{String(h).padStart(2, '0')}:00</th>
              {days.map((d) => {
                const day = d.toISODate()!;
                const title = `${dayName(d)}, ${String(h).padStart(2, '0')}:00`;
                return (
                  <td key={day} className="cal-slot" {...dropTarget(ctx, day, h)}>
                    <CellCards cards={slots.get(`${day} ${h}`) ?? []} ctx={ctx} max={3} title={title} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function AgendaView({ days, cardsByDay, ctx, today }: ViewProps) {
  const busy = days.filter((d) => cardsByDay.has(d.toISODate()!));
  return (
    <div className="cal-agenda">
      {busy.map((d) => {
        const day = d.toISODate()!;
        return (
          <section key={day} className="cal-agenda-day" aria-labelledby={`day-${day}`}>
            <h2 id={`day-${day}`} className={day === today ? 'cal-today' : undefined}>
              {dayName(d)}
              {day === today && <span className="muted"> · today</span>}
            </h2>
            <CardList cards={cardsByDay.get(day)!} ctx={ctx} />
          </section>
        );
      })}
    </div>
  );
}
