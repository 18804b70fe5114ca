// Handlers for the folders operations of the contract (filled in by the folders work).
export {};
