// What counts against a plan, kept as counters so whoami and the quota checks read a few rows instead of counting
// a workspace's posts, files, accounts and members on every call. Triggers keep them in the transaction that
// changes the rows, whichever code path (API, worker, CLI, retention sweep) changes them; the same statements
// run on SQLite and PostgreSQL. Counters start from the rows already there.
// Also clears the rate limiter's counters, whose buckets changed form.
import type { Knex } from 'knex';
import { isPostgres } from '../connect.ts';

/** One counter: what a row of `table` adds to it, in which period ('' for none), and the columns that move it. */
interface Counter {
  name: string;
  table: string;
  /** SQL over the row alias `r`: what the row adds (0 for nothing). */
  amount: string;
  /** SQL over `r`: the row's period; '' for a counter without periods. */
  period: string;
  /** Updates of these columns move the counter (none: rows never move between counts once inserted). */
  movedBy: string[];
}

const COUNTERS: Counter[] = [
  {
    name: 'accounts',
    table: 'accounts',
    amount: 'case when r.disconnected_at is null then 1 else 0 end',
    period: "''",
    movedBy: ['disconnected_at'],
  },
  { name: 'members', table: 'members', amount: '1', period: "''", movedBy: [] },
  { name: 'storage_bytes', table: 'media', amount: 'r.stored_bytes', period: "''", movedBy: ['stored_bytes'] },
  // Posts count in the month (workspace zone) they were queued for; drafts have no month and count nowhere.
  {
    name: 'posts',
    table: 'posts',
    amount: 'case when r.quota_month is null then 0 else 1 end',
    period: "coalesce(r.quota_month, '')",
    movedBy: ['quota_month'],
  },
];

/** Adds the row's amount (negated for the row as it was) to its counter. */
function addRow(counter: Counter, row: 'new' | 'old'): string {
  const over = (sql: string) => sql.replace(/\br\./g, `${row}.`);
  const amount = row === 'new' ? over(counter.amount) : `-(${over(counter.amount)})`;
  return `insert into usage_counters (workspace_id, counter, period, value)
    select ${row}.workspace_id, '${counter.name}', ${over(counter.period)}, ${amount} where ${over(counter.amount)} <> 0
    on conflict (workspace_id, counter, period) do update set value = usage_counters.value + excluded.value;`;
}

const triggerName = (counter: Counter, event: string) => `usage_${counter.name}_${event}`;

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('usage_counters', (t) => {
    t.string('workspace_id').notNullable();
    t.string('counter').notNullable();
    t.string('period').notNullable();
    t.bigInteger('value').notNullable();
    t.primary(['workspace_id', 'counter', 'period']);
  });
  for (const c of COUNTERS) {
    const moved = c.movedBy.length ? ` or update of ${c.movedBy.join(', ')}` : '';
    if (isPostgres(db)) {
      await db.raw(`create function ${triggerName(c, 'count')}() returns trigger language plpgsql as $$
        begin
          if tg_op in ('UPDATE', 'DELETE') then ${addRow(c, 'old')} end if;
          if tg_op in ('INSERT', 'UPDATE') then ${addRow(c, 'new')} end if;
          return null;
        end $$`);
      await db.raw(`create trigger ${triggerName(c, 'count')} after insert or delete${moved} on ${c.table}
        for each row execute function ${triggerName(c, 'count')}()`);
    } else {
      await db.raw(`create trigger ${triggerName(c, 'insert')} after insert on ${c.table}
        begin ${addRow(c, 'new')} end`);
      await db.raw(`create trigger ${triggerName(c, 'delete')} after delete on ${c.table}
        begin ${addRow(c, 'old')} end`);
      if (c.movedBy.length) {
        await db.raw(`create trigger ${triggerName(c, 'update')} after update of ${c.movedBy.join(', ')} on ${c.table}
          begin ${addRow(c, 'old')} ${addRow(c, 'new')} end`);
      }
    }
    await db.raw(`insert into usage_counters (workspace_id, counter, period, value)
      select r.workspace_id, '${c.name}', ${c.period}, sum(${c.amount}) from ${c.table} r
      group by 1, 3 having sum(${c.amount}) <> 0`);
  }
  // The rate limiter's rows now name their window length in the bucket (server/rateLimit.ts); rows of the old
  // form would never be cleared. They only hold the current window's counts.
  await db('rate_counters').delete();
}

export async function down(db: Knex): Promise<void> {
  for (const c of COUNTERS) {
    if (isPostgres(db)) {
      await db.raw(`drop trigger ${triggerName(c, 'count')} on ${c.table}`);
      await db.raw(`drop function ${triggerName(c, 'count')}()`);
    } else {
      for (const event of ['insert', 'delete', 'update']) {
        await db.raw(`drop trigger if exists ${triggerName(c, event)}`);
      }
    }
  }
  await db.schema.dropTable('usage_counters');
}
