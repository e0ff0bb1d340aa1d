// Work a view puts off until the reader is about to see it: the Accuracy view's data, the decision tools' panels.
// How far below (or above) the screen an element counts as near, in CSS pixels.
export const NEAR_MARGIN_PX = 400;

// Calls `fn` once, when `el` comes within NEAR_MARGIN_PX of the screen; in a browser without IntersectionObserver, on
// the next microtask (the caller's render finishes first, as it does when the observer fires). Returns a function
// that stops the watch; `fn` is not called after it.
export function whenNear(el, fn) {
  let live = true;
  let observer = null;
  const stop = () => { live = false; if (observer) observer.disconnect(); observer = null; };
  const fire = () => { if (!live) return; stop(); fn(); };
  if (typeof IntersectionObserver === 'undefined') queueMicrotask(fire);
  else {
    observer = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) fire(); }, { rootMargin: `${NEAR_MARGIN_PX}px 0px` });
    observer.observe(el);
  }
  return stop;
}
