// Whether a sentence still speaks API. The dashboard words its sentences from the facts the server sends beside
// its messages (an error's and an issue's field, limit and actual); this guard is for the sentences it quotes.

/** True when a sentence still speaks API: a field path, a code, an id, backticks or an ISO timestamp. */
export function speaksApi(text: string): boolean {
  return /`|[a-z]+_[a-z_]+|\b(med|pst|acc|fld|grp|key|usr|wsp)_\w|\d{4}-\d\d-\d\dT|\w\.\w+\.\w|\w\[\d+\]/.test(text);
}
