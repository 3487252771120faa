/**
 * A duration for people: `300 ms` under a second, else seconds with at most one decimal (`1.5 s`, `65 s`). Reports keep
 * their exact milliseconds; this is for lines read as a run goes (the probe's progress lines, its summary).
 */
export function durationWords(ms: number): string {
  const rounded = Math.max(0, Math.round(ms));
  if (rounded < 1000) return `${rounded} ms`;
  return `${Number((rounded / 1000).toFixed(1))} s`;
}
