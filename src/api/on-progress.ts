/**
 * Told before each step of a long run (a fixture, a probe check): the step's position from 0, how many there are,
 * and what it is. The CLI draws a counter on a terminal with it; a caller of the API may ignore it.
 */
export type OnProgress = (index: number, total: number, label: string) => void;
