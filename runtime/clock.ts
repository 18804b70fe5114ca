// The one clock of a process: what time it is and how to wait. Everything that stamps or waits on time
// reads the injected clock, so a test that controls it controls the whole process: posts and their
// events, accounts, groups, analytics, the handlers' "now", the publishing worker and its job queue.
//
// What stays on real time, deliberately: the sign-in machinery (sessions, invitations, password resets,
// OAuth codes and tokens, rate-limit windows) and media uploads (signed upload addresses, their holds).
// Their expiry is also judged outside this process by the real clock (a browser's cookie Max-Age, an
// OAuth client, S3 checking a presigned address), and a test that moves the publishing clock a day
// ahead must not sign its people out. On PostgreSQL, graphile-worker starts jobs by the database's
// clock; the worker still reserves and launches each attempt by this one.
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** The clock's time as an ISO instant, the form every stored stamp takes. */
/** An instant in milliseconds as the ISO text the database stores. */
export const isoAt = (ms: number): string => new Date(ms).toISOString();
export const isoNow = (clock: Clock): string => isoAt(clock.now());
