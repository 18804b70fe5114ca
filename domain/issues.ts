// A plan row's finding: the failing field in `message`, what to do in `hint`. The codes are the
// contract's (Issue.code): a code missing there does not compile.
import type { components } from '../generated/api.d.ts';

export type IssueCode = components['schemas']['Issue']['code'];

export interface Issue {
  code: IssueCode;
  message: string;
  hint: string;
}
