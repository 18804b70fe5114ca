// Handlers for the media operations of the contract (filled in by the media work).
export {};
