// A plan row's finding: the failing field in `message`, what to do in `hint`.
export interface Issue {
  code: string;
  message: string;
  hint: string;
}
