// A plan row's finding: the failing field in `message`, what to do in `hint`. The codes are the
// contract's (Issue.code): a code missing there does not compile.
import type { components } from '../generated/api.d.ts';
import type { Facts } from './errors.ts';

export type IssueCode = components['schemas']['Issue']['code'];

/** The sentence for people and programs, and its facts (field, limit, actual) for programs that word their own. */
export interface Issue extends Facts {
  code: IssueCode;
  message: string;
  hint: string;
}
