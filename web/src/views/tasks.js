// Yielding to the event loop, so that input and paint come between the steps of a long piece of work.

// The rest runs in a new task of normal priority.
export const nextTask = () => new Promise((resolve) => { setTimeout(resolve, 0); });

// Runs fn in a background-priority task where the browser has the Prioritized Task Scheduling API (Chromium;
// https://developer.mozilla.org/en-US/docs/Web/API/Scheduler/postTask), so that tasks of normal priority queued
// meanwhile come first; elsewhere in a timer task. Returns a function that cancels the task.
export function background(fn) {
  const s = globalThis.scheduler;
  if (s && typeof s.postTask === 'function' && typeof TaskController === 'function') {
    const tc = new TaskController({ priority: 'background' });
    s.postTask(fn, { signal: tc.signal }).catch(() => { /* aborted */ });
    return () => tc.abort();
  }
  const id = setTimeout(fn, 0);
  return () => clearTimeout(id);
}
