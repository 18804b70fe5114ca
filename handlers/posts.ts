// Handlers for the posts operations of the contract (filled in by the posts work).
export {};
