// One finding of `herald doctor` (cli/doctor.ts) and of its `--live` checks (cli/doctorLive.ts).

export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface Check {
  name: string;
  status: CheckStatus;
  message: string;
  /** What to do about it; absent when all is well. */
  fix?: string;
  [detail: string]: unknown;
}

export const ok = (name: string, message: string, details: object = {}): Check => ({
  name,
  status: 'ok',
  message,
  ...details,
});
export const warn = (name: string, message: string, fix: string, details: object = {}): Check => ({
  name,
  status: 'warn',
  message,
  fix,
  ...details,
});
export const fail = (name: string, message: string, fix: string, details: object = {}): Check => ({
  name,
  status: 'fail',
  message,
  fix,
  ...details,
});
