/**
 * Told before each step of a long run (a fixture, a probe check): the step's position from 0, how many there are,
 * and what it is. The CLI draws a counter on a terminal with it; a caller of the API may ignore it.
 */
export type OnProgress = (index: number, total: number, label: string) => void;

/**
 * Told as each probe check starts (with its limit on a tool: "waiting up to 65 s for slow_op") and ends (with its
 * outcome), and the moment the long tool has not answered within the limit. The CLI writes each as a line on stderr.
 */
export type { CheckLimit, OnProbeEvent, ProbeEvent } from '../probe/probe-events.js';
export type { Stall } from '../probe/stall.js';
