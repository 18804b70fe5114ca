// Handlers for the analytics operations of the contract (filled in by the analytics work).
export {};
