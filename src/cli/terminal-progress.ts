import type { OnProgress } from '../api/on-progress.js';
import { Progress } from './progress.js';

/**
 * A progress callback for the API that draws the counter on standard error (on a terminal), and its end. A run
 * of several stages (the probe's checks, then the fixtures) gets a counter per stage: a new one starts when the
 * total changes or the count starts again.
 */
export function terminalProgress(): { readonly onProgress: OnProgress; readonly done: () => void } {
  let stage: { progress: Progress; total: number; index: number } | undefined;
  return {
    onProgress: (index, total, label) => {
      if (stage === undefined || stage.total !== total || index < stage.index) {
        stage?.progress.done();
        stage = { progress: new Progress(process.stderr, total), total, index };
      }
      stage.index = index;
      stage.progress.update(index, label);
    },
    done: () => stage?.progress.done(),
  };
}
