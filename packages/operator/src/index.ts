// The operator's public surface grows as its controllers land.
export {};
