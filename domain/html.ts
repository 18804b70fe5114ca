// Text placed in the few HTML pages Herald renders itself (sandbox post pages, consent pages, /app).

/** The text as HTML character data or a quoted attribute value: nothing in it can open markup. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
